import Dispatch
import Primitives
import Synchronization

extension ScreenScheduler {
    /// One screen's serial lane: its work waits here in order, and the lane itself waits on libdispatch's global
    /// queue while it has work and no thread runs it. A thread that takes the lane runs its work one item at a time;
    /// so a screen's work is serial while screens run in parallel.
    ///
    /// A lane is a plain object, not a dispatch queue: an item is a closure in a list (no block copied per item), and
    /// only a lane that was idle goes to the global queue (``GlobalQueue``: no block either).
    ///
    /// `@unchecked Sendable`: the queued items, `active` and `owner` are read and written only under `lock`;
    /// `turnDepth` and the deferred work only by the thread that holds the lane (in the lane rather than in an object
    /// of their own: one allocation less per screen); the rest is immutable or atomic.
    final class Lane: @unchecked Sendable {
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
        // The flags beside the lock, in the half word it leaves: a lane kept for each screen is then a malloc size
        // class smaller (Benchmarks/History/54-screen-memory-8.md). `active` is unchecked as the queue below is.
        /// Whether a thread holds the lane or the lane waits on the global queue for one.
        @exclusivity(unchecked) private var active = false
        /// Whether catch-up work is refused while no page watches (``ScreenScheduler/hold()``).
        private var isHeld = false
        // `@exclusivity(unchecked)` on the queue below (receipt: `ScreenScheduler` in
        // Benchmarks/History/26-receipts.md): read and written under `lock` only, never across a call out.
        /// The oldest item, in a field of its own: a screen rarely has more than one waiting, and a list would be an
        /// allocation for it.
        @exclusivity(unchecked) private var first: Item?
        /// The items after `first`, from `restStart` on.
        @exclusivity(unchecked) private var rest: [Item] = []
        @exclusivity(unchecked) private var restStart = 0
        @exclusivity(unchecked) private weak var owner: ScreenScheduler?
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

        /// Whether the lane holds its sources' changes now.
        var holds: Bool { lock.withLock { isHeld } }

        var errorHandler: (@Sendable (ProgrammerError) -> Void)? {
            get { lock.withLock { programmerErrorHandler } }
            set { lock.withLock { programmerErrorHandler = newValue } }
        }

        /// Registers `source`; answers whether the lane holds now.
        func register(_ source: any ScreenCatchUp) -> Bool {
            lock.withLock {
                // The list taken out, grown and put back whole, as in `unregister(_:)`: an access to it spanning a
                // change in place (which may reallocate and release) would need a run-time exclusivity check on
                // every access to it (Benchmarks/History/69-exclusivity-by-shape-2.md).
                var sources = catchUpSources
                catchUpSources = []
                sources.append(source)
                catchUpSources = sources
                return isHeld
            }
        }

        func unregister(_ source: any ScreenCatchUp) {
            lock.withLock {
                var sources = catchUpSources
                guard let index = sources.firstIndex(where: { $0 === source }) else { return }
                catchUpSources = []
                sources.swapAt(index, sources.count - 1)
                sources.removeLast()
                catchUpSources = sources.isEmpty ? [] : sources
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
}
