import Dispatch
import Primitives
import Reactive

/// A thread-safe registry of per-movie observers that delivers committed changes in commit order, the versions
/// of a movie that wait for delivery merged into its latest, and its deletion last (as `nil`).
///
/// A store calls ``publish(_:)`` right after a commit, while it still holds its write lock: that
/// only enqueues the movie on the feed's serial delivery queue, so deliveries keep the order of the
/// commits, and observers run on that queue with no lock held (an observer may read or update the
/// store).
///
/// A movie has at most one delivery waiting: a commit made while its movie's last version still waits replaces
/// that version, so each observer sees every movie's versions in commit order, maybe skipping some, and always the
/// latest. With one delivery queued per commit, writers faster than the deliveries (each goes to every screen of
/// the movie: thousands on a busy server) grew the queue without bound: a soak's four writers, once nothing held
/// their requests back, kept both cores busy for minutes after the load stopped and grew the server by 1 MiB a
/// second. The feed covers changes made through one store object; several processes on one database
/// would need a feed fed by the database itself, which this type leaves room for.
final class MovieChangeFeed: Sendable {
    /// Identifies one observer, for ``stopObserving(_:)``.
    struct Token: Hashable, Sendable {
        fileprivate let movieID: Int
        fileprivate let serial: Int
    }

    /// One movie's observers in the order they started observing, with the serial of each: a delivery walks them in
    /// that order (the order a server made its screens, and so, mostly, the order of their objects in memory).
    ///
    /// A screen that closes (or is evicted at the session cap, once per page load on a full server) stops observing
    /// in logarithmic time: serials only grow, so the list is sorted by them and the entry is found by bisection and
    /// emptied in place; the emptied entries are dropped once they are as many as the observing ones. No stop
    /// searches and compacts the list (a retain and a release per observer of the movie, under the feed's lock), and
    /// deliveries go in the order observers came (the heap's order), not a dictionary's hash order.
    ///
    /// A paused observer (its screen unwatched) keeps its entry, flagged in `paused`: a delivery skips it on a check
    /// of that flag, without touching the observer, and it learns on resuming whether it missed a delivery. An
    /// observer is called with the movie after each change and with `nil` once it is deleted.
    private struct Observers {
        private(set) var serials: [Int] = []
        private(set) var observers: [(@Sendable (Movie?) -> Void)?] = []
        private(set) var paused: [Bool] = []
        /// Per entry, the movie's delivery count when it paused (meaningful while `paused`).
        private var pausedAt: [Int] = []
        private(set) var count = 0

        mutating func append(_ observer: @escaping @Sendable (Movie?) -> Void, serial: Int) {
            serials.append(serial)
            observers.append(observer)
            paused.append(false)
            pausedAt.append(0)
            count += 1
        }

        /// The index of `serial`'s entry while it observes.
        func index(of serial: Int) -> Int? {
            var low = 0
            var high = serials.count
            while low < high {
                let middle = (low + high) / 2
                if serials[middle] < serial { low = middle + 1 } else { high = middle }
            }
            guard low < serials.count, serials[low] == serial, observers[low] != nil else { return nil }
            return low
        }

        /// Pauses `serial`'s entry, remembering the delivery count; false if it was paused or is gone.
        mutating func pause(serial: Int, deliveries: Int) -> Bool {
            guard let index = index(of: serial), !paused[index] else { return false }
            paused[index] = true
            pausedAt[index] = deliveries
            return true
        }

        /// Resumes `serial`'s entry; answers its observer and the delivery count when it paused, nil if it was not
        /// paused.
        mutating func resume(serial: Int) -> (observer: @Sendable (Movie?) -> Void, pausedAt: Int)? {
            guard let index = index(of: serial), paused[index], let observer = observers[index] else { return nil }
            paused[index] = false
            return (observer, pausedAt[index])
        }

        /// Empties the entry of `serial`, if it still observes; drops the emptied entries once they are as many as
        /// the observing ones.
        mutating func remove(serial: Int) {
            guard let index = index(of: serial) else { return }
            observers[index] = nil
            paused[index] = false
            count -= 1
            if count <= serials.count - count { compact() }
        }

        private mutating func compact() {
            var kept = 0
            for index in observers.indices where observers[index] != nil {
                serials[kept] = serials[index]
                observers[kept] = observers[index]
                paused[kept] = paused[index]
                pausedAt[kept] = pausedAt[index]
                kept += 1
            }
            serials.removeLast(serials.count - kept)
            observers.removeLast(observers.count - kept)
            paused.removeLast(paused.count - kept)
            pausedAt.removeLast(pausedAt.count - kept)
        }
    }

    private struct Registry {
        var nextSerial = 0
        var observers: [Int: Observers] = [:]
        /// Per movie, how many deliveries ran, and the movie the last one delivered (`nil`: its deletion): what a
        /// resuming observer that missed some is given.
        var deliveries: [Int: (count: Int, movie: Movie?)] = [:]
        /// Per movie, the version waiting for its delivery (`nil`: its deletion), and what to call once it is
        /// delivered.
        var waiting: [Int: (movie: Movie?, delivered: (@Sendable () -> Void)?)] = [:]
    }

    private let registry = Locked(Registry())
    private let delivery = DispatchQueue(label: "MovieChangeFeed.delivery")

    /// Calls `observer` with the movie after every committed change of movie `id`, and with `nil` once it is
    /// deleted, on the feed's delivery queue, until ``stopObserving(_:)`` is called with the returned token.
    func observe(_ id: Int, _ observer: @escaping @Sendable (Movie?) -> Void) -> Token {
        registry.withLock { registry in
            registry.nextSerial += 1
            registry.observers[id, default: Observers()].append(observer, serial: registry.nextSerial)
            return Token(movieID: id, serial: registry.nextSerial)
        }
    }

    /// Stops calling the observer of `token` until ``resume(_:)``; a delivery already under way may still reach it.
    func pause(_ token: Token) {
        registry.withLock { registry in
            let deliveries = registry.deliveries[token.movieID]?.count ?? 0
            _ = registry.observers[token.movieID]?.pause(serial: token.serial, deliveries: deliveries)
        }
    }

    /// Calls the observer of `token` again; first, before returning, with the movie's last delivered version (or
    /// `nil`, its deletion) if it missed one while paused. Runs on the delivery queue, so it never overlaps a
    /// delivery; never call it from an observer.
    func resume(_ token: Token) {
        delivery.sync {
            let missed = registry.withLock { registry -> (Movie?, @Sendable (Movie?) -> Void)? in
                guard let (observer, pausedAt) = registry.observers[token.movieID]?.resume(serial: token.serial),
                    let delivered = registry.deliveries[token.movieID], delivered.count != pausedAt
                else { return nil }
                return (delivered.movie, observer)
            }
            if let (movie, observer) = missed { observer(movie) }
        }
    }

    /// How many subscriptions observe movie `id` now, paused ones included.
    func observerCount(of id: Int) -> Int {
        registry.withLock { $0.observers[id]?.count ?? 0 }
    }

    /// Stops calling the observer of `token`. A delivery already under way may still reach it once.
    func stopObserving(_ token: Token) {
        registry.withLock { registry in
            registry.observers[token.movieID]?.remove(serial: token.serial)
            if registry.observers[token.movieID]?.count == 0 {
                registry.observers[token.movieID] = nil
            }
        }
    }

    /// Queues the delivery of a committed movie to its observers, each once, in the order they started observing;
    /// replaces the version of the movie still waiting for delivery, if any. `delivered` runs once every observer
    /// has been called with it (not for a version replaced before its delivery).
    func publish(_ movie: Movie, delivered: (@Sendable () -> Void)? = nil) {
        enqueue(movie, of: movie.id, delivered: delivered)
    }

    /// Queues the delivery of movie `id`'s committed deletion to its observers (as `nil`), each once, in the order
    /// they started observing, after the versions delivered before it; replaces a version still waiting. A movie is
    /// deleted once (ids are never reused): call it once a deletion, after the commit.
    func publishDeletion(of id: Int) {
        enqueue(nil, of: id, delivered: nil)
    }

    private func enqueue(_ movie: Movie?, of id: Int, delivered: (@Sendable () -> Void)?) {
        let isQueued = registry.withLock { registry in
            registry.waiting.updateValue((movie, delivered), forKey: id) != nil
        }
        if isQueued { return }
        delivery.async { [self] in
            // The list as it is now, without a copy under the lock: an observer that stops (or starts) meanwhile
            // copies it then, and this delivery goes on over the list it took. A commit from here on queues a
            // delivery of its own.
            let (waiting, observers, paused) = registry.withLock { registry in
                let waiting = registry.waiting.removeValue(forKey: id)
                if let waiting {
                    registry.deliveries[id] = ((registry.deliveries[id]?.count ?? 0) + 1, waiting.movie)
                }
                let entry = registry.observers[id]
                return (waiting, entry?.observers ?? [], entry?.paused ?? [])
            }
            guard let (movie, delivered) = waiting else { return }
            for index in observers.indices where !paused[index] {
                observers[index]?(movie)
            }
            delivered?()
        }
    }
}

/// A subscription to a movie's changes (and deletion): disposing it stops them; pausing it (a screen no page watches)
/// makes the feed skip its observer until it resumes with the version (or the deletion) it missed
/// (``PausableDisposable``).
extension MovieChangeFeed {
    /// Movie `id`'s changes (a store's ``MovieStore/changes(of:)``): each version delivered, with no lock held, on the
    /// feed's delivery queue; the subscription is the feed's pausable one.
    func changes(of id: Int) -> Observable<Movie> {
        Observable.create { [self] observer in
            // The feed holds the observer itself: it calls each observer one at a time on its delivery queue, which
            // is all the grammar asks, and `create`'s observer drops what arrives after disposal (a delivery under
            // way when the screen goes). A relay between them, to make the hand-over `Sendable`, cost every screen a
            // subject and its entry, and each change a pass through them.
            let feedObserver = FeedObserver(observer: observer)
            let token = observe(id) { movie in
                if let movie { feedObserver.observer.onNext(movie) }
            }
            return MovieChangeSubscription(feed: self, token: token)
        }
    }

    /// Movie `id`'s changes, then `nil` once it is deleted, then completion (a store's
    /// ``MovieStore/changesAndDeletion(of:)``), in commit order, pausable as ``changes(of:)``.
    func changesAndDeletion(of id: Int) -> Observable<Movie?> {
        Observable.create { [self] observer in
            let feedObserver = FeedObserver(observer: observer)
            let token = observe(id) { movie in
                feedObserver.observer.onNext(movie)
                if movie == nil { feedObserver.observer.onCompleted() }
            }
            return MovieChangeSubscription(feed: self, token: token)
        }
    }
}

/// A subscriber of ``MovieChangeFeed/changes(of:)`` or ``MovieChangeFeed/changesAndDeletion(of:)`` as the feed holds
/// it: called only on the feed's serial delivery queue, one movie at a time.
///
/// `@unchecked Sendable`: `AnyObserver` is not `Sendable`, but the feed calls each observer from its one serial
/// delivery queue only, which is all the observer grammar asks. Held directly rather than through a relay that would
/// make the hand-over `Sendable` at the cost of a subject and its entry a screen (receipt: "the change feed holds
/// `create`'s observer itself" in Benchmarks/History/13-sixth-round-static-markup.md).
private struct FeedObserver<Element>: @unchecked Sendable {
    let observer: AnyObserver<Element>
}

final class MovieChangeSubscription: PausableDisposable, Sendable {
    private let feed: MovieChangeFeed
    private let token: MovieChangeFeed.Token

    init(feed: MovieChangeFeed, token: MovieChangeFeed.Token) {
        self.feed = feed
        self.token = token
    }

    func pause() { feed.pause(token) }
    func resume() { feed.resume(token) }
    func dispose() { feed.stopObserving(token) }
}
