import Dispatch
import FoundationEssentials
import Primitives
import Reactive

#if canImport(Glibc)
    import Glibc
#endif

/// Listens for a channel's notifications on a connection of its own, from one thread that sleeps in `poll` on the
/// connection's socket until PostgreSQL sends something (`PQconsumeInput`, `PQnotifies`): no thread per
/// notification, no work while nothing happens.
///
/// When the connection is lost it calls `onLoss`, reconnects with a backoff (0.1 s doubling to 2 s), listens again
/// and calls `onReconnect`, so its owner can resync what it missed meanwhile (and stop trusting what it kept).
final class PostgreSQLChangeListener: Sendable {
    private let address: PostgreSQLAddress
    private let channel: String
    private let isStopped = Locked(false)
    private let onNotification: @Sendable (String) -> Void
    private let onReconnect: @Sendable () -> Void
    private let onLoss: @Sendable (String) -> Void

    init(
        address: PostgreSQLAddress, channel: String, onNotification: @escaping @Sendable (String) -> Void,
        onReconnect: @escaping @Sendable () -> Void, onLoss: @escaping @Sendable (String) -> Void
    ) {
        self.address = address
        self.channel = channel
        self.onNotification = onNotification
        self.onReconnect = onReconnect
        self.onLoss = onLoss
    }

    /// Connects and listens, then goes on listening on a thread of its own; throws when PostgreSQL cannot be
    /// reached, so a server fails at start-up.
    func start() throws(StoreError) {
        let connection = try listen()
        let transfer = ConnectionTransfer(connection: connection)
        // A serial queue of its own: its one work item, the loop below, has a thread to itself for the listener's life.
        DispatchQueue(label: "PostgreSQLChangeListener").async { [self] in run(transfer.connection) }
    }

    /// Stops listening; the thread closes the connection and ends within half a second.
    func stop() {
        isStopped.withLock { $0 = true }
    }

    private var stopped: Bool { isStopped.withLock { $0 } }

    private func listen() throws(StoreError) -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection(address)
        try connection.execute("LISTEN \(channel)", [], "listening for changes")
        return connection
    }

    private func run(_ first: PostgreSQLConnection) {
        var connection: PostgreSQLConnection? = first
        var backoff = 0.1
        while !stopped {
            guard let open = connection else {
                usleep(UInt32(backoff * 1_000_000))
                guard !stopped else { break }
                do {
                    connection = try listen()
                    backoff = 0.1
                    onReconnect()
                } catch {
                    onLoss("\(error)")
                    backoff = min(backoff * 2, 2)
                }
                continue
            }
            var descriptor = pollfd(fd: open.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 500)
            guard ready > 0 else {
                if ready < 0 && errno != EINTR {
                    onLoss("the listening connection to \(address) failed: poll")
                    connection = nil
                }
                continue
            }
            let isUp = open.consumeInput() && open.isConnected
            for notification in open.takeNotifications() { onNotification(notification.payload) }
            if !isUp {
                onLoss("the listening connection to \(address) was lost")
                connection = nil
            }
        }
    }
}

/// Hands the first connection to the listener's thread, which alone uses it from then on.
private struct ConnectionTransfer: @unchecked Sendable {
    let connection: PostgreSQLConnection
}
