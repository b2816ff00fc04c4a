import Primitives
import Screenplay

/// The instances of the demo on one PostgreSQL database reach each other's screens over `NOTIFY`: a message to
/// instance `a` is a notification on channel `screenplay_instance_a`, which only `a` listens to, on a connection of
/// its own (``PostgreSQLChangeListener``). Sending takes a connection of the store's pool for one statement.
///
/// A message sent while PostgreSQL is unreachable is dropped (and logged), as ``InstanceMessenger`` allows.
final class PostgreSQLInstanceMessenger: InstanceMessenger {
    private let address: PostgreSQLAddress
    private let pool: PostgreSQLConnectionPool
    private let logger: Logger?
    private let listener: Locked<PostgreSQLChangeListener?> = Locked(nil)

    init(address: PostgreSQLAddress, pool: PostgreSQLConnectionPool, logger: Logger?) {
        self.address = address
        self.pool = pool
        self.logger = logger
    }

    /// The channel the messages to `instance` go on (instance names are letters, digits and `-`).
    static func channel(of instance: String) -> String { "screenplay_instance_" + instance }

    func start(instance: String, receive: @escaping @Sendable (String) -> Void) throws {
        let (address, logger) = (address, logger)
        // Quoted: a name keeps its case and may hold `-`.
        let listener = PostgreSQLChangeListener(
            address: address, channel: "\"\(Self.channel(of: instance))\"", onNotification: receive,
            onReconnect: {},
            onLoss: { error in
                logger?.log(.warning, "instances.listener_lost", ["store": address.description, "error": error])
            })
        try listener.start()
        self.listener.withLock { $0 = listener }
    }

    func send(_ message: String, to instance: String) {
        do {
            _ = try pool.withConnection(retryingLostConnection: true) { connection throws(StoreError) in
                try connection.execute(
                    "SELECT pg_notify($1, $2)", [Self.channel(of: instance), message], "sending to instance \(instance)"
                )
            }
        } catch {
            logger?.log(.warning, "instances.send_failed", ["to": instance, "error": "\(error)"])
        }
    }

    func stop() {
        listener.withLock { $0 }?.stop()
    }
}
