public import Reactive

/// Binds a view controller's views to a driver once the view has loaded — the seed's protocol, as written.
///
/// A binder is created with its view controller and driver and calls `bind()` from its initialiser. `bindLoaded()`
/// then runs once, on the screen's scheduler, right after `viewDidLoad`. Insert the binder into the view controller's
/// bag (or keep it elsewhere) so it lives as long as the screen:
///
/// ```swift
/// let binder = MovieDetailBinder(viewController: viewController, driver: driver)
/// viewController.bag.insert(binder)
/// ```
public protocol ViewControllerBinder: Disposable {
    associatedtype DisposeViewControllerContainer: ViewController, DisposeContainer

    var viewController: DisposeViewControllerContainer { get }

    func bindLoaded()
}

extension ViewControllerBinder where Self: AnyObject {
    /// Has `bindLoaded` run once right after the view controller's `viewDidLoad` (in order with `rx.viewDidLoad`'s
    /// subscribers), unless the controller's bag is disposed first. Nothing of it is kept once it has run.
    public func bind() {
        viewController.recordBoundBinder(ObjectIdentifier(Self.self))
        viewController.whenViewLoaded(unowned(self, in: Self.bindLoaded))
    }
}
