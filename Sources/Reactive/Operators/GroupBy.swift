extension ObservableType {
    /// Splits the elements into groups by `keySelector`: sends a `GroupedObservable` for each new key, which sends the
    /// elements with that key. A group made and not subscribed to at once misses the elements sent before it is
    /// (the groups are hot, as RxSwift's). The source's completion or error ends every group; a thrown error fails
    /// the result and every group.
    ///
    /// ```swift
    /// movies.groupBy { $0.genre }.flatMap { group in group.toArray().asObservable().map { (group.key, $0) } }
    /// ```
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key)
        -> Observable<GroupedObservable<Key, Element>>
    {
        let source = asObservable()
        return Observable.create { observer in
            var groups: [Key: PublishSubject<Element>] = [:]
            func stopAll(_ event: Event<Element>) {
                let subjects = Array(groups.values)
                groups = [:]
                for subject in subjects { subject.on(event) }
            }
            return source.subscribe { event in
                switch event {
                case .next(let element):
                    let key: Key
                    do { key = try keySelector(element) } catch {
                        stopAll(.error(error))
                        observer.onError(error)
                        return
                    }
                    if let subject = groups[key] {
                        subject.onNext(element)
                        return
                    }
                    let subject = PublishSubject<Element>()
                    groups[key] = subject
                    observer.onNext(GroupedObservable(key: key, source: subject.asObservable()))
                    subject.onNext(element)
                case .error(let error):
                    stopAll(.error(error))
                    observer.onError(error)
                case .completed:
                    stopAll(.completed)
                    observer.onCompleted()
                }
            }
        }
    }
}

/// One group of `groupBy(keySelector:)`: the elements that share `key`.
///
/// ```swift
/// group.subscribe(onNext: { print(group.key, $0) })
/// ```
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key the group's elements share.
    public let key: Key
    private let source: Observable<Element>

    /// A group of `source`'s elements under `key`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group as an `Observable`.
    public func asObservable() -> Observable<Element> {
        source
    }
}
