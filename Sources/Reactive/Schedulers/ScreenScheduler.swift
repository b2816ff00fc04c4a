public import Dispatch
public import Foundation
import Synchronization

/// A serial scheduler that plays the main thread for one screen (that screen's `MainScheduler`).
///
/// Contract: work runs one item at a time, in FIFO order, on the screen's private queue; code
/// running on it finds it through `ScreenScheduler.current`. As an Rx scheduler it runs an action
/// at once when called on its own queue with nothing else pending (like `MainScheduler`), and
/// enqueues it otherwise. Screens run in parallel with each other.
///
/// ```swift
/// let scheduler = ScreenScheduler(label: "screen.42")
/// scheduler.schedule {
///     precondition(ScreenScheduler.current === scheduler)
/// }
/// let title = scheduler.sync { "rendered" }
/// ```
public final class ScreenScheduler: SchedulerType, Sendable, CustomStringConvertible {
    /// What the running turn's thread-local names: holds the scheduler weakly, since the lane's queue is owned by it.
    ///
    /// `@unchecked Sendable`: `reference` is read and written only under `lock` (one object per screen, where a
    /// weak box behind a `Locked` took four).
    private final class Identity: @unchecked Sendable {
        private let lock = InlineLock()
        private weak var reference: ScreenScheduler?

        var scheduler: ScreenScheduler? {
            get { lock.withLock { reference } }
            set { lock.withLock { reference = newValue } }
        }
    }

    /// The thread-local slot naming the lane whose turn the thread runs (its identity, unretained: the turn holds
    /// the lane). A queue-specific value did this before: three allocations per screen for the queue's specific
    /// table, and a `dispatch_get_specific` on every confinement check.
    private static let currentLane: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "ScreenScheduler: no thread-local key (pthread_key_create: \(status))")
        return key
    }()

    /// A serial queue with the identity its turns name as current: what a scheduler runs on, handed to the next scheduler
    /// when its own goes away with nothing queued.
    ///
    /// Creating a dispatch queue and, above all, releasing one costs more than a screen's other set-up: the last
    /// release of a queue wakes a worker thread of its target. A full server ends one session per page load (the
    /// session cap), and those wake-ups, a context switch each, made a page load at the cap several times dearer.
    ///
    /// `@unchecked Sendable`: `turnDepth` and `deferred` are read and written only on `queue`, by the work running
    /// there (in the lane rather than in an object of their own: one allocation less per screen); the rest is
    /// immutable or atomic.
    private final class Lane: @unchecked Sendable {
        let queue: DispatchQueue
        let identity = Identity()
        let scheduling: DispatchQueueScheduling
        /// `schedule(_:)` work queued and not yet run: such work does not keep its scheduler alive.
        let pendingWork = Atomic<Int>(0)
        /// Set once a timer was scheduled: a timer may fire after its scheduler is gone, so the lane is not reused.
        let hadTimers = Atomic<Bool>(false)

        /// How many tracked turns are running on the queue (more than one while a turn's deferred work runs).
        // `@exclusivity(unchecked)`: both are touched on the lane's serial queue only.
        @exclusivity(unchecked) var turnDepth = 0
        /// What the running turn left for its end (``ScreenScheduler/atEndOfTurn(_:)``): the first in a field of its
        /// own (a screen defers one flush a turn, and an array for it was an allocation and a free every turn of
        /// every screen of a fan-out), any more after it in order.
        @exclusivity(unchecked) var deferredFirst: (@Sendable () -> Void)?
        @exclusivity(unchecked) var deferred: [@Sendable () -> Void] = []

        /// Adds `work` to what runs at the end of the turn.
        func deferToEndOfTurn(_ work: @escaping @Sendable () -> Void) {
            if deferredFirst == nil && deferred.isEmpty {
                deferredFirst = work
            } else {
                deferred.append(work)
            }
        }

        /// Which lane this is, in creation order (for tests).
        let number = Lane.created.wrappingAdd(1, ordering: .relaxed).newValue
        private static let created = Atomic<Int>(0)

        init(label: String) {
            queue = DispatchQueue(label: label, target: ScreenScheduler.target)
            scheduling = DispatchQueueScheduling(queue: queue)
        }

        /// Runs `work` as a turn, with the thread naming this lane as current, then whatever it deferred to its end,
        /// in order (also when `work` throws). Only on `queue`: everything that runs there comes through here.
        func runTurn<T>(_ work: () throws -> T) rethrows -> T {
            let previous = pthread_getspecific(ScreenScheduler.currentLane)
            pthread_setspecific(ScreenScheduler.currentLane, Unmanaged.passUnretained(identity).toOpaque())
            turnDepth += 1
            defer {
                turnDepth -= 1
                if turnDepth == 0 && (deferredFirst != nil || !deferred.isEmpty) { runDeferred() }
                pthread_setspecific(ScreenScheduler.currentLane, previous)
            }
            return try work()
        }

        private func runDeferred() {
            turnDepth += 1
            while deferredFirst != nil || !deferred.isEmpty {
                // Work deferred by this work runs after it, in the order it was deferred.
                let first = deferredFirst
                deferredFirst = nil
                let due = deferred
                if !due.isEmpty { deferred = [] }
                first?()
                for work in due { work() }
            }
            turnDepth -= 1
        }
    }

    /// Idle lanes of schedulers that went away, for the next ones (at most `spareLimit`).
    private static let spareLanes = Locked<[Lane]>([])
    private static var spareLimit: Int { 1024 }

    /// Which queue this scheduler runs on: the same number for a queue passed on from an earlier scheduler (for
    /// tests).
    package var laneNumber: Int { lane.number }

    /// Work given to ``schedule(_:)`` that has not finished running yet, the running one included (for tests).
    package var unfinishedWork: Int { lane.pendingWork.load(ordering: .acquiring) }

    /// Whether no work scheduled here is queued or running (timers and ``sync(_:)`` callers aside): `sync` would then
    /// start at once, unless work comes meanwhile. For a thread that must not wait behind a busy screen's queue but
    /// may take one turn's wait.
    package var isIdle: Bool {
        lane.pendingWork.load(ordering: .acquiring) == 0 && enqueued.load(ordering: .acquiring) == 0
    }

    /// The name given at creation, used in diagnostics. (A queue passed on from an earlier scheduler keeps the
    /// label it was created with in libdispatch's own diagnostics.)
    public let label: String
    private let lane: Lane
    private var queue: DispatchQueue { lane.queue }
    private var identity: Identity { lane.identity }
    private let enqueued = Atomic<Int>(0)

    /// Where every screen queue runs. A serial queue created on its own targets libdispatch's overcommit root queue,
    /// which gives each queue with work a thread of its own, up to 255: a fan-out to thousands of screens then ran
    /// on hundreds of threads (each with its stack and malloc arena) contending for a few cores. The global queue
    /// is not overcommit: screens share a pool about the size of the machine, widened only when its threads block.
    private static let target = DispatchQueue.global()

    /// Creates a scheduler with its own serial queue named `label`.
    public init(label: String) {
        self.label = label
        lane = Self.spareLanes.withLock { $0.popLast() } ?? Lane(label: label)
        lane.identity.scheduler = self
    }

    deinit {
        // Nothing can be queued any more (queueing takes a reference to the scheduler); what `schedule(_:)`
        // queued earlier and timers may still be due, and such a lane is released rather than passed on.
        guard lane.pendingWork.load(ordering: .acquiring) == 0, !lane.hadTimers.load(ordering: .acquiring) else {
            return
        }
        let lane = self.lane
        // A lane not kept is released after this, outside the lock.
        Self.spareLanes.withLock { spare in
            if spare.count < Self.spareLimit { spare.append(lane) }
        }
    }

    /// The screen scheduler whose queue runs the calling code, or `nil` off any screen.
    public static var current: ScreenScheduler? {
        guard let lane = pthread_getspecific(currentLane) else { return nil }
        return Unmanaged<Identity>.fromOpaque(lane).takeUnretainedValue().scheduler
    }

    /// Whether the calling code runs on this scheduler's queue.
    public var isCurrent: Bool {
        pthread_getspecific(Self.currentLane) == Unmanaged.passUnretained(identity).toOpaque()
    }

    /// `ScreenScheduler(label)`.
    public var description: String {
        "ScreenScheduler(\(label))"
    }

    /// Runs `work` later on this scheduler's queue, after everything scheduled before it.
    public func schedule(_ work: @escaping @Sendable () -> Void) {
        let lane = self.lane
        lane.pendingWork.wrappingAdd(1, ordering: .relaxed)
        lane.queue.async {
            lane.runTurn(work)
            lane.pendingWork.wrappingSubtract(1, ordering: .releasing)
        }
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
    /// Precondition: not called on this scheduler (that would deadlock). Only `Sendable` results
    /// come out, so screen-owned objects cannot leak to the calling thread.
    public func sync<T: Sendable>(_ work: () throws -> T) rethrows -> T {
        precondition(
            !isCurrent,
            "ScreenScheduler.sync called on \(label) itself; that deadlocks. Call the code directly instead.")
        let lane = self.lane
        return try queue.sync { try lane.runTurn(work) }
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
        queue.async {
            defer { self.enqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
            guard !cancel.isDisposed else { return }
            lane.runTurn { cancel.setDisposable(work.value.1(work.value.0)) }
        }
        return cancel
    }

    /// Runs `action` on this queue after `dueTime`.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
    ) -> any Disposable {
        let lane = self.lane
        lane.hadTimers.store(true, ordering: .releasing)
        return lane.scheduling.scheduleRelative(state, dueTime: dueTime) { state in lane.runTurn { action(state) } }
    }
}

/// Requires the caller to run on a screen scheduler and returns it; `operation` names the call
/// in the failure message.
@usableFromInline
func requireScreenScheduler(_ operation: String, file: StaticString, line: UInt) -> ScreenScheduler {
    guard let scheduler = ScreenScheduler.current else {
        preconditionFailure(
            "\(operation) called off a screen scheduler; call it from code running on a ScreenScheduler "
                + "(for example in the binder's bindLoaded), so that its elements are delivered on that screen.",
            file: file, line: line)
    }
    return scheduler
}
