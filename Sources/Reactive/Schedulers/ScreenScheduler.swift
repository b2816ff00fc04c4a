public import Dispatch
public import Foundation
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
    fileprivate static let currentLane = ThreadSlot("ScreenScheduler")

    /// One screen's serial lane: its work waits here in order, and the lane itself waits on libdispatch's global
    /// queue while it has work and no thread runs it. A thread that takes the lane runs its work one item at a time;
    /// so a screen's work is serial while screens run in parallel.
    ///
    /// This was a serial `DispatchQueue` per screen: each item was copied into a block (an allocation and a free),
    /// pushed onto the screen's queue, and the queue onto the global one. A lane is a plain object: an item is a
    /// closure in a list, and only a lane that was idle goes to the global queue (`dispatch_async_f`: no block).
    ///
    /// `@unchecked Sendable`: the queued items, `active` and `owner` are read and written only under `lock`;
    /// `turnDepth` and the deferred work only by the thread that holds the lane (in the lane rather than in an object
    /// of their own: one allocation less per screen); the rest is immutable or atomic.
    private final class Lane: @unchecked Sendable {
        /// What waits in a lane.
        enum Item {
            /// Work from ``ScreenScheduler/schedule(_:)``: run as a turn, then counted off `pendingWork`.
            case tracked(@Sendable () -> Void)
            /// Work that runs its own turn (an Rx action, a timer's action).
            case untracked(@Sendable () -> Void)
            /// A ``ScreenScheduler/sync(_:)`` caller waiting for the lane: the thread that reaches it hands the lane
            /// over and stops.
            case handoff(DispatchSemaphore)
        }

        /// The scheduler whose lane this is, while it exists: what its turns name as current. Weak, since the
        /// scheduler owns the lane, and work it queued may outlive it.
        var scheduler: ScreenScheduler? {
            get { lock.withLock { owner } }
            set { lock.withLock { owner = newValue } }
        }
        /// `schedule(_:)` work queued and not yet run: such work does not keep its scheduler alive.
        let pendingWork = Atomic<Int>(0)

        private let lock = InlineLock()
        // `@exclusivity(unchecked)` on the queue below (receipt: `ScreenScheduler` in
        // Benchmarks/History/26-receipts.md): read and written under `lock` only, never across a call out.
        /// The oldest item, in a field of its own: a screen rarely has more than one waiting, and a list would be an
        /// allocation for it.
        @exclusivity(unchecked) private var first: Item?
        /// The items after `first`, from `restStart` on.
        @exclusivity(unchecked) private var rest: [Item] = []
        @exclusivity(unchecked) private var restStart = 0
        /// Whether a thread holds the lane or the lane waits on the global queue for one.
        @exclusivity(unchecked) private var active = false
        @exclusivity(unchecked) private weak var owner: ScreenScheduler?
        /// Whether catch-up work is refused while no page watches (``ScreenScheduler/hold()``).
        private var isHeld = false
        /// The sources that keep their latest value themselves (conflated change feeds), registered when they are
        /// subscribed on this screen, in that order: what catches up when the screen resumes.
        private var catchUpSources: [any ScreenCatchUp] = []
        /// Where the programmer errors of code running here go (``ScreenScheduler/onProgrammerError(_:)``).
        private var programmerErrorHandler: (@Sendable (ProgrammerError) -> Void)?

        /// How many tracked turns are running on the lane (more than one while a turn's deferred work runs).
        // `@exclusivity(unchecked)` (the same receipt): these are touched by the thread that holds the lane only.
        @exclusivity(unchecked) var turnDepth = 0
        /// What the running turn left for its end (``ScreenScheduler/atEndOfTurn(_:)``): the first in a field of its
        /// own (a screen defers one flush a turn, and an array for it was an allocation and a free every turn of
        /// every screen of a fan-out), any more after it in order.
        @exclusivity(unchecked) var deferredFirst: (@Sendable () -> Void)?
        @exclusivity(unchecked) var deferred: [@Sendable () -> Void] = []

        /// How many items a thread runs before the lane goes behind the other lanes waiting.
        private static var itemsPerVisit: Int { 16 }

        /// Adds `work` to what runs at the end of the turn.
        func deferToEndOfTurn(_ work: @escaping @Sendable () -> Void) {
            if deferredFirst == nil && deferred.isEmpty {
                deferredFirst = work
            } else {
                deferred.append(work)
            }
        }

        /// Queues `item`; an idle lane goes to the global queue for a thread.
        func enqueue(_ item: Item) {
            let activate = lock.withLock { () -> Bool in
                push(item)
                guard !active else { return false }
                active = true
                return true
            }
            if activate { submit() }
        }

        /// Queues the work `make` makes, as ``enqueue(_:)`` does, unless the lane is held: then nothing is made or
        /// queued, and false says so (the caller's source catches up when the screen resumes).
        func enqueueUnlessHeld(_ make: () -> @Sendable () -> Void) -> Bool {
            let activate = lock.withLock { () -> Bool? in
                if isHeld { return nil }
                push(.tracked(make()))
                guard !active else { return false }
                active = true
                return true
            }
            guard let activate else { return false }
            pendingWork.wrappingAdd(1, ordering: .relaxed)
            if activate { submit() }
            return true
        }

        /// Holds from now on, or (with `false`) stops holding; answers the registered sources.
        func setHeld(_ holds: Bool) -> [any ScreenCatchUp] {
            lock.withLock {
                isHeld = holds
                return catchUpSources
            }
        }

        /// The registered sources, none unless the lane holds.
        var heldSources: [any ScreenCatchUp] { lock.withLock { isHeld ? catchUpSources : [] } }

        var errorHandler: (@Sendable (ProgrammerError) -> Void)? {
            get { lock.withLock { programmerErrorHandler } }
            set { lock.withLock { programmerErrorHandler = newValue } }
        }

        /// Registers `source`; answers whether the lane holds now.
        func register(_ source: any ScreenCatchUp) -> Bool {
            lock.withLock {
                catchUpSources.append(source)
                return isHeld
            }
        }

        func unregister(_ source: any ScreenCatchUp) {
            lock.withLock {
                guard let index = catchUpSources.firstIndex(where: { $0 === source }) else { return }
                catchUpSources.swapAt(index, catchUpSources.count - 1)
                catchUpSources.removeLast()
                if catchUpSources.isEmpty { catchUpSources = [] }
            }
        }

        /// Waits until the calling thread holds the lane: at once when it is idle, otherwise when the thread running
        /// it reaches this request, after the work queued before it.
        func acquire() {
            let waiter = lock.withLock { () -> DispatchSemaphore? in
                guard active else {
                    active = true
                    return nil
                }
                let waiter = DispatchSemaphore(value: 0)
                push(.handoff(waiter))
                return waiter
            }
            guard let waiter else { return }
            waiter.wait()
            // The handing thread took the lock after its last item: taking it here orders that work before this
            // thread's for ThreadSanitizer too, which may not see the semaphore as an ordering.
            lock.withLock {}
        }

        /// How many items wait, `sync` callers included (for tests).
        var waitingItems: Int {
            lock.withLock { (first == nil ? 0 : 1) + rest.count - restStart }
        }

        /// Lets go of the lane after `acquire()`: it goes to the global queue if work came meanwhile.
        func release() {
            if stillActive() { submit() }
        }

        /// Pushes `item` after the others. Under `lock`.
        private func push(_ item: Item) {
            if first == nil && restStart == rest.count {
                first = item
            } else {
                rest.append(item)
            }
        }

        /// The oldest item, taken out, or `nil` with the lane marked idle. Under `lock`.
        private func pop() -> Item? {
            if let item = first {
                first = nil
                return item
            }
            guard restStart < rest.count else {
                active = false
                return nil
            }
            let item = rest[restStart]
            restStart += 1
            if restStart == rest.count {
                // Emptied, the list's storage goes: an idle screen keeps nothing for a burst it had.
                rest = []
                restStart = 0
            }
            return item
        }

        /// Whether work waits; the lane is marked idle when none does.
        private func stillActive() -> Bool {
            lock.withLock {
                if first != nil || restStart < rest.count { return true }
                active = false
                return false
            }
        }

        /// Puts the lane on the global queue, where a thread takes it and runs its items.
        private func submit() {
            GlobalQueue.async(context: Unmanaged.passRetained(self).toOpaque()) { context in
                guard let context else { return }
                Unmanaged<Lane>.fromOpaque(context).takeRetainedValue().run()
            }
        }

        /// Runs queued items until none is left, a `sync` caller is handed the lane, or `itemsPerVisit` ran; then
        /// the lane goes behind the others if more waits.
        private func run() {
            for _ in 0..<Self.itemsPerVisit {
                switch lock.withLock({ pop() }) {
                case nil:
                    return
                case .tracked(let work)?:
                    runTurn(work)
                    pendingWork.wrappingSubtract(1, ordering: .releasing)
                case .untracked(let work)?:
                    work()
                case .handoff(let waiter)?:
                    waiter.signal()
                    return
                }
            }
            release()
        }

        /// Runs `work` as a turn, with the thread naming this lane as current, then whatever it deferred to its end,
        /// in order (also when `work` throws). Only by the thread that holds the lane.
        func runTurn<T>(_ work: () throws -> T) rethrows -> T {
            let previous = ScreenScheduler.currentLane.pointer
            ScreenScheduler.currentLane.set(Unmanaged.passUnretained(self).toOpaque())
            turnDepth += 1
            defer {
                turnDepth -= 1
                if turnDepth == 0 && (deferredFirst != nil || !deferred.isEmpty) { runDeferred() }
                ScreenScheduler.currentLane.set(previous)
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
