internal import Dispatch
internal import FoundationEssentials
import Primitives
internal import Synchronization

/// The sweep that ends idle sessions: one timer for all sessions, none per session.
///
/// Contract: between ``start()`` and ``stop()`` it asks the registry to end idle and over-the-cap sessions every
/// few seconds, on a utility queue, and runs the chores added to it (``addChore(_:)``) then too; released, it sweeps
/// no more. Thread-safe.
final class SessionSweep: Sendable {
    private let sessions: SessionRegistry
    private let isSweeping = Atomic<Bool>(false)
    private let chores = Locked<[@Sendable () -> Void]>([])

    init(sessions: SessionRegistry) {
        self.sessions = sessions
    }

    /// Starts sweeping.
    func start() {
        isSweeping.store(true, ordering: .relaxed)
        scheduleSweep()
    }

    /// Runs `chore` at every sweep, every few seconds: keep it short, and let it decide when it has work.
    func addChore(_ chore: @escaping @Sendable () -> Void) {
        chores.withLock { $0.append(chore) }
    }

    /// Stops sweeping; a sweep under way finishes.
    func stop() {
        isSweeping.store(false, ordering: .relaxed)
    }

    private func scheduleSweep() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(5)) { [weak self] in
            guard let self, self.isSweeping.load(ordering: .relaxed) else { return }
            self.sessions.expireIdle()
            for chore in self.chores.withLock({ $0 }) { chore() }
            self.scheduleSweep()
        }
    }
}
