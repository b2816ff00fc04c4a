internal import Foundation
internal import Synchronization

/// The sweep that ends idle sessions: one timer for all sessions, none per session.
///
/// Contract: between ``start()`` and ``stop()`` it asks the registry to end idle and over-the-cap sessions every
/// few seconds, on a utility queue; released, it sweeps no more. Thread-safe.
final class SessionSweep: Sendable {
    private let sessions: SessionRegistry
    private let isSweeping = Atomic<Bool>(false)

    init(sessions: SessionRegistry) {
        self.sessions = sessions
    }

    /// Starts sweeping.
    func start() {
        isSweeping.store(true, ordering: .relaxed)
        scheduleSweep()
    }

    /// Stops sweeping; a sweep under way finishes.
    func stop() {
        isSweeping.store(false, ordering: .relaxed)
    }

    private func scheduleSweep() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(5)) { [weak self] in
            guard let self, self.isSweeping.load(ordering: .relaxed) else { return }
            self.sessions.expireIdle()
            self.scheduleSweep()
        }
    }
}
