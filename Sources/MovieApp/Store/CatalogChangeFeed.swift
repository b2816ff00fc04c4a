import Dispatch
import Primitives
import Reactive

/// A thread-safe registry of catalog observers that delivers committed ``CatalogChange``s in commit order, each to
/// every observer once.
///
/// A store calls ``publish(_:)`` right after a commit, while it still holds what orders its commits (SQLite's lock,
/// PostgreSQL's cache lock): that only appends the change to the waiting ones, and the first waiting change queues
/// one delivery on the feed's serial queue, which hands over every change waiting by then. So a burst of commits
/// faster than the deliveries waits as one list, not one queued block each, and observers run with no lock held (an
/// observer may read or write the store).
///
/// A movie's deletion alone is followed by movie (``deletion(of:)``): every screen showing a movie follows its
/// deletion for as long as it lives, and as a catalog observer each of them was a chain of operators (a filter, a map,
/// a take) kept per screen and run on every change of any movie.
final class CatalogChangeFeed: Sendable {
    private struct Registry {
        var nextSerial = 0
        var observers: [Int: @Sendable (CatalogChange) -> Void] = [:]
        /// Per movie, the observers of its deletion alone, by serial.
        var deletionObservers: [Int: [Int: @Sendable () -> Void]] = [:]
        var waiting: [CatalogChange] = []
    }

    private let registry = Locked(Registry())
    private let delivery = DispatchQueue(label: "CatalogChangeFeed.delivery")

    /// Calls `observer` with every change committed from now on, on the feed's delivery queue, until the returned
    /// disposable is disposed (a delivery under way may still reach it once).
    func observe(_ observer: @escaping @Sendable (CatalogChange) -> Void) -> any Disposable {
        let serial = registry.withLock { registry in
            registry.nextSerial += 1
            registry.observers[registry.nextSerial] = observer
            return registry.nextSerial
        }
        return Disposables.create(with: { [registry] in
            registry.withLock { _ = $0.observers.removeValue(forKey: serial) }
        })
    }

    /// Queues the delivery of a committed change to every observer.
    func publish(_ change: CatalogChange) {
        let isFirst = registry.withLock { registry in
            registry.waiting.append(change)
            return registry.waiting.count == 1
        }
        guard isFirst else { return }
        delivery.async { [registry] in
            let (changes, observers) = registry.withLock { registry in
                let changes = registry.waiting
                registry.waiting = []
                return (changes, registry.observers.sorted { $0.key < $1.key }.map(\.value))
            }
            for change in changes {
                for observer in observers { observer(change) }
                // A movie is deleted once (ids are never reused): its deletion's observers are called once, and let go.
                guard case .deleted(let id) = change else { continue }
                let followers = registry.withLock { $0.deletionObservers.removeValue(forKey: id) } ?? [:]
                for follower in followers.sorted(by: { $0.key < $1.key }) { follower.value() }
            }
        }
    }

    /// Emits once movie `id` is deleted, then completes (``MovieStore/deletion(of:)``): an observer of that movie
    /// alone, which no other change reaches. Disposing the subscription stops delivery (one under way may still
    /// arrive).
    func deletion(of id: Int) -> Observable<Void> {
        Observable.create { [registry] observer in
            let relay = DeletionObserver(observer: observer)
            let serial = registry.withLock { registry in
                registry.nextSerial += 1
                registry.deletionObservers[id, default: [:]][registry.nextSerial] = {
                    relay.observer.onNext(())
                    relay.observer.onCompleted()
                }
                return registry.nextSerial
            }
            return Disposables.create(with: {
                registry.withLock { registry in
                    guard registry.deletionObservers[id]?.removeValue(forKey: serial) != nil else { return }
                    if registry.deletionObservers[id]?.isEmpty == true { registry.deletionObservers[id] = nil }
                }
            })
        }
    }

    /// An observable of the feed's changes for ``MovieStore/catalogChanges()``.
    func changes() -> Observable<CatalogChange> {
        Observable.create { [self] observer in
            let relay = CatalogObserver(observer: observer)
            return observe { change in relay.observer.onNext(change) }
        }
    }
}

/// A subscriber of a catalog feed as the feed holds it: called only on the feed's serial delivery queue, one change
/// at a time.
private struct CatalogObserver: @unchecked Sendable {
    let observer: AnyObserver<CatalogChange>
}

/// A follower of one movie's deletion as the feed holds it: called once, on the feed's serial delivery queue.
private struct DeletionObserver: @unchecked Sendable {
    let observer: AnyObserver<Void>
}
