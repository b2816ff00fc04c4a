import Primitives

/// Carries messages between the instances of one app behind one proxy, each named by
/// ``SessionConfiguration/instanceName``, so that what happens on one instance to a screen another one holds reaches
/// that screen: the events of an upload whose requests the proxy sent to another instance than its screen's.
///
/// The demo's PostgreSQL store provides one over `LISTEN`/`NOTIFY`; an app on another bus writes its own. Hand it to
/// ``Application/connectInstances(through:)``.
///
/// Contract: thread-safe. A message is at most 4,000 bytes of UTF-8 (PostgreSQL's `NOTIFY` carries 7,999). ``send(_:to:)`` does not wait for
/// delivery and may drop a message while the bus is down (a screen that misses an upload's progress still hears its
/// end, or its page's upload client shows it); messages from one sender to one instance arrive in the order sent.
public protocol InstanceMessenger: Sendable {
    /// Starts handing `receive` the messages other instances send to the instance named `instance` (this one), on a
    /// thread of the messenger's. Throws when the bus cannot be reached, so that a server fails at start-up.
    func start(instance: String, receive: @escaping @Sendable (String) -> Void) throws
    /// Sends `message` to the instance named `instance`.
    func send(_ message: String, to instance: String)
    /// Stops receiving.
    func stop()
}

/// This instance's way to the others, once the app has a messenger: what relays through it sends a kind and a body,
/// and hears the bodies of its kind.
final class InstanceLink: Sendable {
    /// The longest message a messenger must carry (``InstanceMessenger``'s contract), in bytes.
    static let maximumLength = 4_000
    /// This instance's name (``SessionConfiguration/instanceName``).
    let instanceName: String
    private let messenger = Locked<(any InstanceMessenger)?>(nil)
    private let handlers = Locked<[String: @Sendable (String) -> Void]>([:])
    private let logger: Logger

    init(instanceName: String, logger: Logger) {
        self.instanceName = instanceName
        self.logger = logger
    }

    /// Starts receiving through `messenger`.
    func connect(_ messenger: any InstanceMessenger) throws {
        guard !instanceName.isEmpty else {
            throw ConfigurationError(
                "connectInstances(through:) needs SessionConfiguration.instanceName: the name other instances send "
                    + "this one's messages to (--instance NAME).")
        }
        try self.messenger.withLock { current in
            guard current == nil else {
                throw ConfigurationError("connectInstances(through:) was called twice: one messenger an application.")
            }
            try messenger.start(instance: instanceName) { [weak self] message in self?.dispatch(message) }
            current = messenger
        }
    }

    func stop() {
        messenger.withLock { $0 }?.stop()
    }

    /// Hands the bodies of `kind` that other instances send to `handler`.
    func handle(_ kind: String, _ handler: @escaping @Sendable (String) -> Void) {
        handlers.withLock { $0[kind] = handler }
    }

    /// The instance screen `id` names, when it is another one and a messenger can reach it.
    func otherInstance(of id: String) -> String? {
        guard let dot = id.firstIndex(of: "."), messenger.withLock({ $0 != nil }) else { return nil }
        let name = String(id[..<dot])
        return name.isEmpty || name == instanceName ? nil : name
    }

    /// Sends `body` of `kind` to `instance`; a message longer than the messenger carries is dropped and logged.
    func send(_ kind: String, _ body: String, to instance: String) {
        let message = kind + "\n" + body
        guard message.utf8.count <= Self.maximumLength, let messenger = messenger.withLock({ $0 }) else {
            logger.log(.warning, "instances.message_dropped", ["kind": kind, "to": instance])
            return
        }
        messenger.send(message, to: instance)
    }

    private func dispatch(_ message: String) {
        guard let newline = message.firstIndex(of: "\n") else { return }
        let kind = String(message[..<newline])
        guard let handler = handlers.withLock({ $0[kind] }) else { return }
        handler(String(message[message.index(after: newline)...]))
    }
}
