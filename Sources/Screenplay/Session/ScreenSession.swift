internal import FoundationEssentials
internal import HTTPServer
import Primitives
package import Reactive
internal import Synchronization
internal import ViewKit

/// The thread-safe handle of one screen session: its id, CSRF token and URL, its serial scheduler (the screen's
/// main thread), and the ``Screen`` confined to that scheduler.
///
/// HTTP threads never touch the screen: they hop onto its scheduler with ``perform(_:)`` and get `Sendable`
/// results back.
package final class ScreenSession: Sendable {
    /// The unguessable session id (128 random bits, URL-safe base64).
    package let id: String
    /// The token every action post must carry.
    package let csrfToken: String
    /// The screen's URL (path and query), to rebuild it after expiry or a restart.
    package let url: String
    package let scheduler: ScreenScheduler
    /// The guard of the route the screen came from: it stands in front of the screen's posts too.
    package let routeGuard: Guard?
    /// The screen, confined to `scheduler` as a `ScreenConfined` box would keep it, without the box: read and written
    /// there only, through ``screen`` (which checks), ``runOnScreen(_:)`` (which hops there) and the flush
    /// ``install(_:)`` schedules with ``ScreenScheduler/atEndOfTurn(_:)`` (which runs it there). A live screen kept a
    /// box of its own for its whole life (Benchmarks/History/51-screen-memory-6.md). `nonisolated(unsafe)` for that
    /// confinement, as `ScreenConfined` is `@unchecked Sendable` for it; a screen ends (``end()``) before its session
    /// is let go, which also breaks the cycle through the screen's flush (``install(_:)``), as it broke the box's.
    nonisolated(unsafe) private var storedScreen: Screen?
    private let connectedStreams = Atomic<Int>(0)

    package init(id: String, csrfToken: String, url: String, scheduler: ScreenScheduler, routeGuard: Guard? = nil) {
        self.id = id
        self.routeGuard = routeGuard
        self.csrfToken = csrfToken
        self.url = url
        self.scheduler = scheduler
        // Until a page's stream attaches, changes wait for it (conflated), unrendered: a page served to a crawler,
        // a closed tab or a browser without JavaScript costs nothing per change.
        scheduler.hold()
    }

    /// Keeps the first programmer error reported by code running on the screen from now on, in the box answered,
    /// until another handler replaces this one: a screen that made one while it was built fails that page load
    /// (`ScreenRouter`, which then installs the handler that logs later ones). The box lives with the handler, not
    /// with the session, so a live screen does not keep it (Benchmarks/History/48).
    func catchFailures() -> Locked<ProgrammerError?> {
        let failure = Locked<ProgrammerError?>(nil)
        scheduler.onProgrammerError { [failure] error in
            failure.withLock { $0 = $0 ?? error }
        }
        return failure
    }

    /// The screen. Precondition: the caller runs on `scheduler`.
    private var screen: Screen? {
        get {
            scheduler.assertCurrent("Access to a session's screen")
            return storedScreen
        }
        set {
            scheduler.assertCurrent("Access to a session's screen")
            storedScreen = newValue
        }
    }

    /// Schedules `body` onto `scheduler` and calls it there with the screen (nil once it ended).
    private func runOnScreen(_ body: @escaping @Sendable (Screen?) -> Void) {
        scheduler.schedule { [self] in body(storedScreen) }
    }

    /// Whether a page's event stream is connected.
    package var isConnected: Bool { connectedStreams.load(ordering: .relaxed) > 0 }

    /// Installs the screen; call on the scheduler.
    package func install(_ value: Screen) {
        screen = value
        // At the end of the turn that changed the views: a flush queued behind the other screens' work (a fan-out
        // queues one turn per screen) went out only once most of them had run.
        // The flush reads the screen's storage itself, not through ``screen``'s check: `atEndOfTurn` runs its work on
        // `scheduler` (deferred in the turn, or a turn of its own), so the check asked the thread what the call
        // already says, on every screen of a fan-out (Benchmarks/History/78-fan-out-screens-8.md).
        value.scheduleFlush = { [self] in
            scheduler.atEndOfTurn { [self] in
                let screen = storedScreen
                screen?.flush()
            }
        }
    }

    /// Runs `body` with the screen on its scheduler and returns its `Sendable` result; nil if the screen ended.
    package func perform<T: Sendable>(_ body: (Screen) throws -> T) rethrows -> T? {
        if scheduler.isCurrent { return try screen.map(body) }
        return try scheduler.sync { try screen.map(body) }
    }

    /// Runs `body` with the screen on its scheduler without waiting for it, then calls `then` with its result (nil if
    /// the screen ended) at the end of that turn, once what the turn changed has been flushed to the page: as
    /// ``perform(_:)`` returns. For the HTTP threads, which must not wait for a busy screen (see ``attachLater``).
    package func performLater<T: Sendable>(
        _ body: @escaping @Sendable (Screen) -> T, then: @escaping @Sendable (T?) -> Void
    ) {
        runOnScreen { [scheduler] screen in
            let result = screen.map(body)
            scheduler.atEndOfTurn { then(result) }
        }
    }

    /// Replaces the screen with the one `build` makes on the scheduler, moving the connected pages over with a
    /// `reset` (development reloads). Does nothing if the session ended; if `build` throws, the old screen stays.
    package func replaceScreen(_ build: () throws -> Screen) throws {
        try scheduler.sync {
            guard let old = screen else { return }
            let new = try build()
            let streams = old.takeStreams()
            old.end()
            install(new)
            for stream in streams { new.attachWithReset(stream) }
        }
    }

    /// Attaches `stream` to the screen on its scheduler without waiting for it, then calls `attached` there with
    /// whether the screen appeared now; closes the stream if the screen has ended by then (its page reconnects and
    /// gets the screen rebuilt from its URL).
    ///
    /// For the HTTP threads: a screen's scheduler can be busy (a change fanned out to thousands of screens queues a
    /// turn on each), and an I/O thread waiting on it holds up every request of its connections; with a thread per
    /// core, a few such waits held up the whole server (a soak's PATCHes stalled for seconds). Work queued on the
    /// screen after this runs after the attach.
    package func attachLater(
        _ stream: any ScreenEventTarget, lastEventID: Int?, attached: @escaping @Sendable (_ appeared: Bool) -> Void
    ) {
        runOnScreen { [scheduler] screen in
            guard let screen else {
                stream.close()
                return
            }
            let appeared = screen.attach(stream, lastEventID: lastEventID)
            // Watched now: what was held runs in this turn, after the replay, and goes out as one patch. A stream that
            // closed before this turn watches nothing: its close found no stream to detach, and the screen holds on.
            if !stream.isClosed { scheduler.resume() }
            attached(appeared)
        }
    }

    /// Attaches `stream` on the scheduler with the difference from `render`, the page it shows, first (a page whose
    /// data changed since its render); returns whether the screen appeared now, nil if it has ended.
    package func attachWithDifference(from render: [UInt8], _ stream: any ScreenEventTarget) -> Bool? {
        perform { screen in
            let appeared = screen.attachWithDifference(from: render, stream)
            if !stream.isClosed { scheduler.resume() }
            return appeared
        }
    }

    /// Attaches `stream` on the scheduler with a `reset` first (a screen rebuilt from its URL); returns whether the
    /// screen appeared now, nil if it has ended.
    package func attachWithReset(_ stream: any ScreenEventTarget) -> Bool? {
        perform { screen in
            let appeared = screen.attachWithReset(stream)
            if !stream.isClosed { scheduler.resume() }
            return appeared
        }
    }

    /// Tracks a connected stream until it closes; when the last one goes, the screen holds its changes again.
    package func streamConnected(_ stream: any ScreenEventTarget) {
        connectedStreams.add(1, ordering: .relaxed)
        // The handler holds the session alone, which makes it no object of its own for the stream's life (one
        // holding the stream too was one; Benchmarks/History/51-screen-memory-6.md): the screen forgets every stream
        // that reads as closed, this one among them (``ScreenEventTarget``: closed before its handlers run).
        stream.onClose { [self] in
            connectedStreams.subtract(1, ordering: .relaxed)
            runOnScreen { [scheduler] screen in
                if screen?.detachClosedStreams() == 0 { scheduler.hold() }
            }
        }
    }

    /// Ends the screen on its scheduler (lifecycle, bag disposed, streams closed) and frees it.
    package func end() {
        runOnScreen { [self] value in
            value?.end()
            screen = nil
        }
    }

    /// Ends the screen as ``end()`` does, before returning, when its scheduler is idle (on the calling thread); a
    /// screen with work queued ends after that work, without the caller waiting.
    ///
    /// For a session evicted to make room for a new one: the request that opens a session pays for ending the old
    /// one, so a flood of page loads cannot run ahead of the teardown it causes (queued on the screen pool, the
    /// ended screens' memory piles up whenever the pool falls behind). A busy screen is not waited for: at the cap
    /// the least recently active screens are those a fan-out has queued turns on, and an I/O thread waiting behind
    /// them held up every request of its connections. Never call it from another screen's scheduler that this screen
    /// might wait on.
    package func endNow() {
        if scheduler.isCurrent {
            endOnScheduler()
        } else if scheduler.isIdle {
            scheduler.sync { endOnScheduler() }
        } else {
            end()
        }
    }

    /// Ends and frees the screen; call on the scheduler.
    private func endOnScheduler() {
        screen?.end()
        screen = nil
    }
}
