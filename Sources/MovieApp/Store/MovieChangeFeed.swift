import Dispatch
import Reactive

/// A thread-safe registry of per-movie observers that delivers committed changes in commit order.
///
/// A store calls ``publish(_:)`` right after a commit, while it still holds its write lock: that
/// only enqueues the movie on the feed's serial delivery queue, so deliveries keep the order of the
/// commits, and observers run on that queue with no lock held (an observer may read or update the
/// store). The feed covers changes made through one store object; several processes on one database
/// would need a feed fed by the database itself, which this type leaves room for.
final class MovieChangeFeed: Sendable {
    /// Identifies one observer, for ``stopObserving(_:)``.
    struct Token: Hashable, Sendable {
        fileprivate let movieID: Int
        fileprivate let serial: Int
    }

    // Observers by movie, then by serial: a screen that closes (or is evicted at the session cap, once per page
    // load on a full server) stops observing in constant time. A list searched and compacted on every stop cost
    // a retain and a release per observer of the movie under the feed's lock: with 10,000 screens of one movie
    // open, that held page loads to a fifth of their rate.
    private struct Registry {
        var nextSerial = 0
        var observers: [Int: [Int: @Sendable (Movie) -> Void]] = [:]
    }

    private let registry = Locked(Registry())
    private let delivery = DispatchQueue(label: "MovieChangeFeed.delivery")

    /// Calls `observer` with the movie after every committed change of movie `id`, on the feed's
    /// delivery queue, until ``stopObserving(_:)`` is called with the returned token.
    func observe(_ id: Int, _ observer: @escaping @Sendable (Movie) -> Void) -> Token {
        registry.withLock { registry in
            registry.nextSerial += 1
            registry.observers[id, default: [:]][registry.nextSerial] = observer
            return Token(movieID: id, serial: registry.nextSerial)
        }
    }

    /// Stops calling the observer of `token`. A delivery already under way may still reach it once.
    func stopObserving(_ token: Token) {
        registry.withLock { registry in
            registry.observers[token.movieID]?.removeValue(forKey: token.serial)
            if registry.observers[token.movieID]?.isEmpty == true {
                registry.observers[token.movieID] = nil
            }
        }
    }

    /// Queues the delivery of a committed movie to its observers (each once, in no particular order).
    func publish(_ movie: Movie) {
        delivery.async { [self] in
            let observers = registry.withLock { $0.observers[movie.id].map { Array($0.values) } ?? [] }
            for observer in observers {
                observer(movie)
            }
        }
    }
}
