public import Reactive

/// A sequence of recorded events played in virtual time, which records its subscriptions.
public class TestableObservable<Element>: ObservableType {
    /// The events it plays.
    public let recordedEvents: [Recorded<Event<Element>>]
    /// Every subscription so far, with subscribe and unsubscribe times.
    public internal(set) var subscriptions: [Subscription] = []
    let scheduler: TestScheduler

    init(scheduler: TestScheduler, events: [Recorded<Event<Element>>]) {
        self.scheduler = scheduler
        recordedEvents = events
    }

    /// Subscribes `observer`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        preconditionFailure("TestableObservable.subscribe is abstract")
    }

    func recordSubscription() -> Int {
        subscriptions.append(Subscription(scheduler.clock))
        return subscriptions.count - 1
    }

    func recordUnsubscription(_ index: Int) {
        subscriptions[index] = Subscription(subscriptions[index].subscribe, scheduler.clock)
    }
}

final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [Int: AnyObserver<Element>] = [:]
    private var nextKey = 0

    override init(scheduler: TestScheduler, events: [Recorded<Event<Element>>]) {
        super.init(scheduler: scheduler, events: events)
        for recorded in events {
            scheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                for key in observers.keys.sorted() { observers[key]?.on(recorded.value) }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let key = nextKey
        nextKey += 1
        observers[key] = AnyObserver(observer)
        let index = recordSubscription()
        return Disposables.create { [weak self] in
            guard let self else { return }
            observers[key] = nil
            recordUnsubscription(index)
        }
    }
}

final class ColdObservable<Element>: TestableObservable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let index = recordSubscription()
        // Only its disposed flag is used: it stops the events not yet played.
        let cancelled = SingleAssignmentDisposable()
        let start = scheduler.clock
        for recorded in recordedEvents {
            scheduler.scheduleAt(start + recorded.time) {
                guard !cancelled.isDisposed else { return }
                observer.on(recorded.value)
            }
        }
        return Disposables.create { [weak self] in
            cancelled.dispose()
            self?.recordUnsubscription(index)
        }
    }
}
