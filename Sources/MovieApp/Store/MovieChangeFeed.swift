import Dispatch
import Reactive

/// A thread-safe registry of per-movie observers that delivers committed changes in commit order, the versions
/// of a movie that wait for delivery merged into its latest.
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
    /// emptied in place; the emptied entries are dropped once they are as many as the observing ones. (A list
    /// searched and compacted on every stop cost a retain and a release per observer of the movie under the feed's
    /// lock: with 10,000 screens of one movie open, that held page loads to a fifth of their rate. Observers kept in
    /// a dictionary by serial were delivered in the order of their hashes: at 10,000 screens each delivery then
    /// touched another part of the heap than the one before.)
    private struct Observers {
        private(set) var serials: [Int] = []
        private(set) var observers: [(@Sendable (Movie) -> Void)?] = []
        private(set) var count = 0

        mutating func append(_ observer: @escaping @Sendable (Movie) -> Void, serial: Int) {
            serials.append(serial)
            observers.append(observer)
            count += 1
        }

        /// Empties the entry of `serial`, if it still observes; drops the emptied entries once they are as many as
        /// the observing ones.
        mutating func remove(serial: Int) {
            var low = 0
            var high = serials.count
            while low < high {
                let middle = (low + high) / 2
                if serials[middle] < serial { low = middle + 1 } else { high = middle }
            }
            guard low < serials.count, serials[low] == serial, observers[low] != nil else { return }
            observers[low] = nil
            count -= 1
            if count <= serials.count - count { compact() }
        }

        private mutating func compact() {
            var kept = 0
            for index in observers.indices where observers[index] != nil {
                serials[kept] = serials[index]
                observers[kept] = observers[index]
                kept += 1
            }
            serials.removeLast(serials.count - kept)
            observers.removeLast(observers.count - kept)
        }
    }

    private struct Registry {
        var nextSerial = 0
        var observers: [Int: Observers] = [:]
        /// Per movie, the version waiting for its delivery, and what to call once it is delivered.
        var waiting: [Int: (movie: Movie, delivered: (@Sendable () -> Void)?)] = [:]
    }

    private let registry = Locked(Registry())
    private let delivery = DispatchQueue(label: "MovieChangeFeed.delivery")

    /// Calls `observer` with the movie after every committed change of movie `id`, on the feed's
    /// delivery queue, until ``stopObserving(_:)`` is called with the returned token.
    func observe(_ id: Int, _ observer: @escaping @Sendable (Movie) -> Void) -> Token {
        registry.withLock { registry in
            registry.nextSerial += 1
            registry.observers[id, default: Observers()].append(observer, serial: registry.nextSerial)
            return Token(movieID: id, serial: registry.nextSerial)
        }
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
        let id = movie.id
        let isQueued = registry.withLock { registry in
            registry.waiting.updateValue((movie, delivered), forKey: id) != nil
        }
        if isQueued { return }
        delivery.async { [self] in
            // The list as it is now, without a copy under the lock: an observer that stops (or starts) meanwhile
            // copies it then, and this delivery goes on over the list it took. A commit from here on queues a
            // delivery of its own.
            let (waiting, observers) = registry.withLock { registry in
                (registry.waiting.removeValue(forKey: id), registry.observers[id]?.observers ?? [])
            }
            guard let (movie, delivered) = waiting else { return }
            for case let observer? in observers {
                observer(movie)
            }
            delivered?()
        }
    }
}
