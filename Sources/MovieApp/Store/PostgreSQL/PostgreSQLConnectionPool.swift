import Dispatch
import Primitives

/// At most `size` connections to one PostgreSQL server, each used by one caller at a time, so that queries from
/// several threads run side by side instead of waiting for each other's round trips.
///
/// Connections are made when a caller finds none idle and fewer than `size` open; a caller finding `size` in use
/// waits for one to come back. A connection found lost after a failure is dropped, and the next caller needing one
/// makes another; ``withConnection(retryingLostConnection:_:)`` can retry a read once on a new connection, since a
/// connection learns that it was lost only on its next use. A connection is never held while calling out: `body` runs
/// queries only, and the connection goes back before the caller publishes anything. Thread-safe.
final class PostgreSQLConnectionPool: Sendable {
    /// Counts for tests and `/metrics`.
    struct Statistics: Sendable, Equatable {
        /// Connections made so far (a lost one replaced counts again).
        var opened = 0
        /// Connections lent out now, and the most ever lent out at once.
        var inUse = 0
        var peakInUse = 0
    }

    let address: PostgreSQLAddress
    let size: Int
    /// One permit per connection the pool may have lent out.
    private let permits: DispatchSemaphore
    private let idle: Locked<[PostgreSQLConnection]>
    private let counts = Locked(Statistics())

    /// A pool of at most `size` connections (at least one); `first`, when given, is its first idle connection.
    init(address: PostgreSQLAddress, size: Int, first: PostgreSQLConnection? = nil) {
        self.address = address
        self.size = max(1, size)
        permits = DispatchSemaphore(value: self.size)
        idle = Locked(first.map { [$0] } ?? [])
        if first != nil { counts.withLock { $0.opened = 1 } }
    }

    var statistics: Statistics { counts.withLock { $0 } }

    /// Runs `body` on a connection of its own, waiting while all `size` are lent out; a connection made for the
    /// call when none is idle. With `retryingLostConnection`, a call that failed because its connection was lost
    /// runs once more on another: for reads, which may run twice.
    func withConnection<T>(
        retryingLostConnection: Bool = false, _ body: (PostgreSQLConnection) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        permits.wait()
        counts.withLock { counts in
            counts.inUse += 1
            counts.peakInUse = max(counts.peakInUse, counts.inUse)
        }
        defer {
            counts.withLock { $0.inUse -= 1 }
            permits.signal()
        }
        var attemptsLeft = retryingLostConnection ? 2 : 1
        while true {
            attemptsLeft -= 1
            let connection = try take()
            do throws(StoreError) {
                let value = try body(connection)
                giveBack(connection)
                return value
            } catch {
                guard !connection.isConnected else {
                    giveBack(connection)
                    throw error
                }
                // Dropped: released here, outside any lock.
                guard attemptsLeft > 0 else { throw error }
            }
        }
    }

    /// An idle connection that is still up, or a new one (made outside the lock); idle ones found down are dropped.
    private func take() throws(StoreError) -> PostgreSQLConnection {
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isConnected { return connection }
        }
        let connection = try PostgreSQLConnection(address)
        counts.withLock { $0.opened += 1 }
        return connection
    }

    private func giveBack(_ connection: PostgreSQLConnection) {
        idle.withLock { $0.append(connection) }
    }
}
