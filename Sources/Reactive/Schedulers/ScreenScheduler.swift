public import Dispatch
public import FoundationEssentials
import Primitives
import Synchronization

/// A serial scheduler that plays the main thread for one screen (that screen's `MainScheduler`).
///
/// Contract: work runs one item at a time, in FIFO order, on the screen's own lane; code running
/// on it finds it through `ScreenScheduler.current`. As an Rx scheduler it runs an action at once
/// when called on its own lane with nothing else pending (like `MainScheduler`), and enqueues it
/// otherwise. Screens run in parallel with each other, on a shared pool of threads.
///
/// ```swift
/// let scheduler = ScreenScheduler(label: "screen.42")
/// scheduler.schedule {
///     precondition(ScreenScheduler.current === scheduler)
/// }
/// let title = scheduler.sync { "rendered" }
/// ```
public final class ScreenScheduler: SchedulerType, Sendable, CustomStringConvertible {
    /// The thread-local slot naming the lane whose turn the thread runs (unretained: the turn holds the lane). A
    /// queue-specific value did this before: three allocations per screen for the queue's specific table, and a
    /// `dispatch_get_specific` on every confinement check.
    static let currentLane = ThreadSlot("ScreenScheduler")

    /// The name given at creation, used in diagnostics.
    public let label: String
    private let lane = Lane()
    private let enqueued = Atomic<Int>(0)
    private static let timers = DispatchQueueScheduling(queue: .global())

    /// Whether no work scheduled here is queued or running (``sync(_:)`` callers aside): `sync` would then start at
    /// once, unless work comes meanwhile. For a thread that must not wait behind a busy screen but may take one
    /// turn's wait.
    package var isIdle: Bool {
        lane.pendingWork.load(ordering: .acquiring) == 0 && enqueued.load(ordering: .acquiring) == 0
    }

    /// Work given to ``schedule(_:)`` that has not finished running yet, the running one included (for tests).
    package var unfinishedWork: Int { lane.pendingWork.load(ordering: .acquiring) }

    /// How many items wait to run, ``sync(_:)`` callers waiting for their turn included (for tests).
    package var waitingItems: Int { lane.waitingItems }

    /// Whether the screen holds its conflated sources' changes now (``hold()``, until ``resume()``; for tests).
    package var isHolding: Bool { lane.holds }
    /// The lane, as an object (for tests of its size).
    package var laneObject: AnyObject { lane }

    /// Creates a scheduler with its own serial lane named `label`.
    ///
    /// Lanes wait for threads on libdispatch's global queue, which is not overcommit: busy screens share a pool
    /// about the size of the machine, widened only when its threads block. (A serial queue of its own per screen,
    /// targeting the overcommit root queue, gave each busy screen a thread, up to 255, each with its stack and malloc
    /// arena, contending for a few cores.)
    public init(label: String) {
        self.label = label
        lane.scheduler = self
    }

    /// The screen scheduler whose queue runs the calling code, or `nil` off any screen.
    public static var current: ScreenScheduler? {
        guard let lane = currentLane.pointer else { return nil }
        return Unmanaged<Lane>.fromOpaque(lane).takeUnretainedValue().scheduler
    }

    /// What names this scheduler to the code running on it, for a check that holds no reference to the scheduler:
    /// its ``ScreenKey/isCurrent`` is ``isCurrent``. Unique among the schedulers alive at once.
    package var confinementKey: ScreenKey { ScreenKey(Unmanaged.passUnretained(lane).toOpaque()) }

    /// Whether the calling code runs on this scheduler's queue.
    public var isCurrent: Bool { confinementKey.isCurrent }

    /// `ScreenScheduler(label)`.
    public var description: String {
        "ScreenScheduler(\(label))"
    }

    /// Runs `work` later on this scheduler's queue, after everything scheduled before it.
    public func schedule(_ work: @escaping @Sendable () -> Void) {
        let lane = self.lane
        lane.pendingWork.wrappingAdd(1, ordering: .relaxed)
        lane.enqueue(.tracked(work))
    }

    /// Queues the work `make` makes, as ``schedule(_:)`` does — unless the scheduler is held (``hold()``): then it
    /// makes and queues nothing and answers false, and the caller, a ``ScreenCatchUp`` source registered here,
    /// catches up when the screen resumes (``resume()``) or before an action (``catchUp()``).
    ///
    /// For sources that keep their latest value themselves (a conflated change feed): a screen no page watches
    /// then runs no binder and renders nothing per change, and a held change costs the source no allocation here.
    @usableFromInline
    package func scheduleUnlessHeld(_ make: () -> @Sendable () -> Void) -> Bool {
        lane.enqueueUnlessHeld(make)
    }

    /// Registers a source to hold and catch up with the screen, until ``unregister(_:)``; answers whether the screen
    /// holds now (the source should then hold at once).
    @usableFromInline
    package func register(_ source: any ScreenCatchUp) -> Bool {
        lane.register(source)
    }

    /// Forgets a registered source (its subscription ended).
    @usableFromInline
    package func unregister(_ source: any ScreenCatchUp) {
        lane.unregister(source)
    }

    /// Sends the ``ProgrammerError``s reported by code running on this scheduler to `handler` (on this scheduler,
    /// synchronously), instead of the process-wide reporter: the screen's session fails the screen.
    package func onProgrammerError(_ handler: @escaping @Sendable (ProgrammerError) -> Void) {
        lane.errorHandler = handler
    }

    /// Hands `error` to this scheduler's handler; false when it has none.
    package func handle(_ error: ProgrammerError) -> Bool {
        guard let handler = lane.errorHandler else { return false }
        handler(error)
        return true
    }

    /// Holds from now on, for a screen no page watches: registered sources pause, and ``scheduleUnlessHeld(_:)``
    /// refuses work until ``resume()``. Call on this scheduler, or before anything is registered (a new screen).
    package func hold() {
        for source in lane.setHeld(true) { source.hold() }
    }

    /// Stops holding, and lets every registered source deliver what it kept or missed, in the order they were
    /// registered, in the calling turn. Call on this scheduler.
    package func resume() {
        for source in lane.setHeld(false) { source.catchUp(thenHold: false) }
    }

    /// While the scheduler holds, lets every registered source deliver what it kept or missed, in the calling turn,
    /// and goes on holding; does nothing otherwise. Call on this scheduler: before an action, so that it acts on the
    /// state the screen would show.
    package func catchUp() {
        for source in lane.heldSources { source.catchUp(thenHold: true) }
    }

    /// Runs `work` on this scheduler once the work running on it now has returned, before anything queued after
    /// it; called off the scheduler, or from work it does not track (a timer's action), it is ``schedule(_:)``.
    ///
    /// For what gathers the effects of a whole turn, such as a screen's flush of its changed views: at the end of
    /// the turn that made the changes it needs no trip through the queue, which under load means waiting behind
    /// every other screen's work before a change goes out.
    ///
    /// ```swift
    /// scheduler.schedule {
    ///     label.text = "7.9"
    ///     scheduler.atEndOfTurn { screen.flush() }   // after this block, not after the queue's other work
    /// }
    /// ```
    package func atEndOfTurn(_ work: @escaping @Sendable () -> Void) {
        if isCurrent && lane.turnDepth > 0 {
            lane.deferToEndOfTurn(work)
        } else {
            schedule(work)
        }
    }

    /// Runs `work` on this scheduler's queue and waits for its result.
    ///
    /// Called on this scheduler itself (which would deadlock), it reports a programmer error and runs `work` in
    /// place. Only `Sendable` results come out, so screen-owned objects cannot leak to the calling thread.
    public func sync<T: Sendable>(_ work: () throws -> T) rethrows -> T {
        guard !isCurrent else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "ScreenScheduler.sync was called on \(label) itself, which would wait for itself.",
                    fix: "call the code directly: it already runs on the screen."))
            return try work()
        }
        lane.acquire()
        defer { lane.release() }
        return try lane.runTurn(work)
    }

    /// Stops the process with a message naming `what` unless the caller runs on this scheduler.
    ///
    /// ```swift
    /// scheduler.assertCurrent("Label.text set")
    /// ```
    public func assertCurrent(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        guard !isCurrent else { return }
        let actual = ScreenScheduler.current.map { "on screen scheduler \($0.label)" } ?? "off any screen scheduler"
        preconditionFailure(
            "\(what()) must run on screen scheduler \(label), but ran \(actual).", file: file, line: line)
    }

    /// The wall clock.
    public var now: RxTime {
        Date()
    }

    /// Runs `action` at once when on this queue with nothing pending; enqueues it otherwise.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable)
        -> any Disposable
    {
        let previous = enqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if previous == 0 && isCurrent {
            defer { enqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
            return action(state)
        }
        let cancel = SingleAssignmentDisposable()
        let work = Transfer((state, action))
        let lane = self.lane
        lane.enqueue(
            .untracked {
                defer { self.enqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
                guard !cancel.isDisposed else { return }
                lane.runTurn { cancel.setDisposable(work.value.1(work.value.0)) }
            })
        return cancel
    }

    /// Runs `action` on this queue after `dueTime`.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        // The timer fires on the global queue and queues the action on the lane, behind the work queued by then;
        // disposing the returned disposable cancels the timer, or the queued action, or disposes what it returned.
        let lane = self.lane
        return Self.timers.scheduleRelative(state, dueTime: dueTime) { state in
            let queued = SingleAssignmentDisposable()
            let work = Transfer((state, action))
            lane.enqueue(
                .untracked {
                    guard !queued.isDisposed else { return }
                    lane.runTurn { queued.setDisposable(work.value.1(work.value.0)) }
                })
            return queued
        }
    }
}

/// A source that keeps its latest value while its screen is held (``ScreenScheduler/hold()``), and delivers it on
/// ``catchUp()``, on the screen's scheduler.
@usableFromInline
package protocol ScreenCatchUp: AnyObject, Sendable {
    /// Stops delivering (pauses its upstream where it can); called where ``ScreenScheduler/hold()`` is.
    func hold()
    /// Delivers what the source kept or missed, if anything, in the calling turn; with `thenHold` it holds again
    /// after. Called on the screen's scheduler.
    func catchUp(thenHold: Bool)
}

/// The screen scheduler the caller runs on; off any screen, nil after reporting a ``ProgrammerError`` naming
/// `operation` (the caller then subscribes nothing).
@usableFromInline
func requireScreenScheduler(_ operation: String, file: StaticString, line: UInt) -> ScreenScheduler? {
    guard let scheduler = ScreenScheduler.current else {
        ProgrammerErrors.report(
            ProgrammerError(
                mistake: "\(operation) was called off a screen scheduler (\(file):\(line)), so nothing was subscribed.",
                fix: "call it from code running on a ScreenScheduler, for example in the binder's bindLoaded, so that "
                    + "its elements are delivered on that screen."))
        return nil
    }
    return scheduler
}

/// Names one screen's scheduler, for code that checks which screen it runs on without holding the scheduler: an
/// opaque value, equal for the same scheduler, that other modules compare and store but cannot turn back into it.
package struct ScreenKey: Hashable, Sendable {
    private let bits: UInt

    init(_ lane: UnsafeMutableRawPointer) {
        bits = UInt(bitPattern: lane)
    }

    /// Whether the calling thread runs a turn of this key's scheduler: the one test of the current screen, which
    /// ``ScreenScheduler/isCurrent``, views' confinement checks and the screen hops all make.
    package var isCurrent: Bool { UInt(bitPattern: ScreenScheduler.currentLane.pointer) == bits }
}
