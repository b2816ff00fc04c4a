internal import Dispatch
internal import FoundationEssentials
import Primitives
internal import Reactive
internal import Synchronization

/// The limits of screen sessions.
public struct SessionConfiguration: Sendable {
    /// The most sessions kept; past it the least recently active session ends. Default 10,000.
    public var capacity: Int = 10_000
    /// How long a session without a connected event stream lives after its last activity. Default 10 minutes.
    public var timeToLive: Duration = .seconds(600)
    /// How many recent events each screen keeps for reconnecting pages. Default 32.
    public var eventBuffer: Int = 32
    /// How many screens one browser's shared event stream carries at most; an attach past it is refused with 429.
    /// Default 64.
    public var screensPerStream: Int = 64
    /// Names this instance at the start of every screen and stream id (`a.Q2xhc3Np…`), so that a load balancer in
    /// front of several instances can send a screen's requests to the instance that holds it (the shipped
    /// `Deployment/nginx.conf` routes on it). Letters, digits and `-` only; empty (the default) for one instance.
    public var instanceName: String = ""
    /// How many bytes of lately rendered pages are kept, so that a page whose data changed between its render and its
    /// stream's attach receives the difference as patches rather than a whole new page; the oldest go first, and a
    /// page goes when its stream attaches. Default 8 MiB; 0 keeps none (such a page is then reset whole).
    public var recentRenderBytes: Int = 8 << 20

    /// The key the tokens of rendered pages are signed with (HMAC-SHA-256; 32 characters or more). A page GET keeps
    /// no screen: its page carries a token, and the screen is built when the page's stream attaches (or a form
    /// posts without JavaScript) from that token. Instances behind one proxy, and a server that restarts, must share
    /// the key for a page rendered by one to go live on another; without one (the default) each process makes its
    /// own, and a page rendered by another process goes live on a fresh screen with a reset.
    public var tokenSecret: String?

    /// The defaults.
    public init() {}
}

/// The live sessions, by id, in order of activity (least recent first), behind one lock.
///
/// Time comes from an injected clock (nanoseconds), so expiry is tested in virtual time.
package final class SessionRegistry: Sendable {
    private struct State: ~Copyable {
        var sessions: [String: Entry] = [:]
        var order = ActivityOrder()
    }

    private struct Entry {
        let session: ScreenSession
        var lastActive: UInt64
    }

    private let state = Locked(State())
    private let configuration: SessionConfiguration
    private let now: @Sendable () -> UInt64
    private let evictions = Atomic<Int>(0)
    private let onEnd: @Sendable (ScreenSession, EndReason) -> Void

    /// Why a session ended, as the log says it.
    package enum EndReason: String, Sendable {
        /// An action navigated away (or a plain form post was answered with a redirect).
        case navigated
        /// Idle past the time to live with no page connected.
        case expired
        /// The least recently active session past the cap.
        case evicted
        /// The server stopped.
        case shutdown
        /// Its page said it was going away (a tab closed, navigated or reloaded).
        case closed
    }

    package init(
        configuration: SessionConfiguration,
        now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
        onEnd: @escaping @Sendable (ScreenSession, EndReason) -> Void = { _, _ in }
    ) {
        self.configuration = configuration
        self.now = now
        self.onEnd = onEnd
    }

    /// Every open session, for development reloads.
    package var all: [ScreenSession] { state.withLock { $0.sessions.values.map(\.session) } }

    /// How many sessions are open.
    package var count: Int { state.withLock { $0.sessions.count } }

    /// How many sessions were ended by the cap or by expiry.
    package var evictedCount: Int { evictions.load(ordering: .relaxed) }

    /// Adds a session; ends the least recently active ones past the cap before returning (see ``ScreenSession/endNow()``).
    package func insert(_ session: ScreenSession) {
        _ = insert(session, replacing: true)
    }

    /// Adds `session` unless a session with its id is open already, and answers the one open under that id then (the
    /// existing one: two requests that build the same page's screen at once keep the first, and the caller ends
    /// its own). Ends the least recently active sessions past the cap, as ``insert(_:)`` does.
    package func insertIfAbsent(_ session: ScreenSession) -> ScreenSession {
        insert(session, replacing: false)
    }

    private func insert(_ session: ScreenSession, replacing: Bool) -> ScreenSession {
        let time = now()
        let (kept, evicted): (ScreenSession, [ScreenSession]) = state.withLock { state in
            if !replacing, let existing = state.sessions[session.id] { return (existing.session, []) }
            state.sessions[session.id] = Entry(session: session, lastActive: time)
            state.order.touch(session.id)
            var evicted: [ScreenSession] = []
            while state.sessions.count > configuration.capacity, let oldest = state.order.oldest {
                state.order.remove(oldest)
                if let entry = state.sessions.removeValue(forKey: oldest) { evicted.append(entry.session) }
            }
            return (session, evicted)
        }
        evictions.add(evicted.count, ordering: .relaxed)
        for session in evicted {
            onEnd(session, .evicted)
            session.endNow()
        }
        return kept
    }

    /// The session with `id`, marked active; nil if unknown.
    package func session(id: String) -> ScreenSession? {
        let time = now()
        return state.withLock { state in
            guard var entry = state.sessions[id] else { return nil }
            entry.lastActive = time
            state.sessions[id] = entry
            state.order.touch(id)
            return entry.session
        }
    }

    /// Removes and ends a session (the user navigated away).
    package func end(id: String, reason: EndReason = .navigated) {
        let removed = state.withLock { state in
            state.order.remove(id)
            return state.sessions.removeValue(forKey: id)
        }
        guard let session = removed?.session else { return }
        onEnd(session, reason)
        session.end()
    }

    /// Ends sessions idle past the time to live with no connected stream; returns how many ended.
    @discardableResult
    package func expireIdle() -> Int {
        let time = now()
        let ttl =
            UInt64(configuration.timeToLive.components.seconds) * 1_000_000_000
            + UInt64(configuration.timeToLive.components.attoseconds / 1_000_000_000)
        let expired: [ScreenSession] = state.withLock { state in
            var expired: [ScreenSession] = []
            for (id, entry) in state.sessions
            where time &- entry.lastActive > ttl && !entry.session.isConnected {
                expired.append(entry.session)
                state.sessions.removeValue(forKey: id)
                state.order.remove(id)
            }
            return expired
        }
        evictions.add(expired.count, ordering: .relaxed)
        for session in expired {
            onEnd(session, .expired)
            session.end()
        }
        return expired.count
    }

    /// Ends every session (server shutdown).
    package func endAll() {
        let all = state.withLock { state in
            defer { state = State() }
            return state.sessions.values.map(\.session)
        }
        for session in all {
            onEnd(session, .shutdown)
            session.end()
        }
    }
}

/// Keys in order of last activity, with O(1) touch, remove and oldest: a doubly linked list over slots.
package struct ActivityOrder {
    private var slots: [String: Int] = [:]
    private var keys: [String?] = []
    private var previous: [Int] = []
    private var next: [Int] = []
    private var free: [Int] = []
    private var head = -1  // least recent
    package init() {}

    private var tail = -1  // most recent

    package var oldest: String? { head >= 0 ? keys[head] : nil }

    package mutating func touch(_ key: String) {
        if let slot = slots[key] {
            unlink(slot)
            link(slot)
            return
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            keys[slot] = key
        } else {
            slot = keys.count
            keys.append(key)
            previous.append(-1)
            next.append(-1)
        }
        slots[key] = slot
        link(slot)
    }

    package mutating func remove(_ key: String) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        unlink(slot)
        keys[slot] = nil
        free.append(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let before = previous[slot], after = next[slot]
        if before >= 0 { next[before] = after } else { head = after }
        if after >= 0 { previous[after] = before } else { tail = before }
        previous[slot] = -1
        next[slot] = -1
    }

    private mutating func link(_ slot: Int) {
        previous[slot] = tail
        next[slot] = -1
        if tail >= 0 { next[tail] = slot } else { head = slot }
        tail = slot
    }
}
