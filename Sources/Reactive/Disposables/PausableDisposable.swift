/// A subscription whose source can stop calling its observer for a while, and catch it up afterwards.
///
/// Contract: after ``pause()`` the source calls the observer with nothing and does no work for it per element;
/// ``resume()`` first delivers the newest element the observer missed, if any, before it returns (on the source's
/// own delivery context, so the observer is never called concurrently), then the source goes on as before. Pausing
/// a paused subscription, or resuming a running one, does nothing.
///
/// A screen's conflated subscriptions pause their sources while no page watches the screen
/// (``ObservableType/conflated(on:)``), so a change costs nothing for screens nobody sees. A subscription made by
/// ``Observable/create(_:)`` forwards both calls to the disposable its closure returned, when that one is pausable.
///
/// ```swift
/// Observable<Movie>.create { observer in
///     let token = feed.observe(id) { observer.onNext($0) }
///     return MovieChangeSubscription(feed: feed, token: token)   // the demo's: pause(), resume(), dispose()
/// }
/// ```
public protocol PausableDisposable: Disposable {
    /// Stops calling the observer until ``resume()``.
    func pause()
    /// Delivers the newest element missed while paused, if any, then goes on calling the observer.
    func resume()
}
