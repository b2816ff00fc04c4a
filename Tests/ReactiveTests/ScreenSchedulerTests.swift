import Dispatch
import Foundation
import Primitives
import Reactive
import Testing

extension ReactiveTests {
    // Serialized: `busyScreensShareABoundedPoolOfThreads` counts the threads that run 400 busy screens.
    @Suite(.serialized) struct ScreenSchedulerTests {
        @Test func currentIsNilOffAnyScreen() {
            #expect(ScreenScheduler.current == nil)
            #expect(!ScreenScheduler(label: "idle").isCurrent)
        }

        @Test func codeOnTheSchedulerFindsIt() {
            let scheduler = ScreenScheduler(label: "found")
            let other = ScreenScheduler(label: "other")
            let (isCurrent, otherIsCurrent, label) = scheduler.sync {
                (scheduler.isCurrent, other.isCurrent, ScreenScheduler.current?.label)
            }
            #expect(isCurrent)
            #expect(!otherIsCurrent)
            #expect(label == "found")
        }

        /// Thousands of screens each have a queue: busy ones share a pool of threads about the size of the machine
        /// instead of each getting a thread of its own (libdispatch gives a thread to every serial queue that
        /// targets its overcommit root queue, up to 255 of them, each with its stack and its malloc arena).
        @Test func busyScreensShareABoundedPoolOfThreads() {
            let schedulers = (0..<400).map { ScreenScheduler(label: "busy.\($0)") }
            let threads = Collector<UInt>()
            let group = DispatchGroup()
            for scheduler in schedulers {
                group.enter()
                scheduler.schedule {
                    // Busy rather than blocked: a blocked thread may rightly be replaced by another one.
                    let end = DispatchTime.now().uptimeNanoseconds + 2_000_000
                    while DispatchTime.now().uptimeNanoseconds < end {}
                    threads.append(UInt(pthread_self()))
                    group.leave()
                }
            }
            group.wait()
            let cores = ProcessInfo.processInfo.activeProcessorCount
            #expect(Set(threads.values).count <= 2 * cores + 4, "\(Set(threads.values).count) threads ran the screens")
        }

        @Test func runsWorkInFIFOOrderOneAtATime() {
            let scheduler = ScreenScheduler(label: "fifo")
            let order = Collector<Int>()
            for index in 0..<100 { scheduler.schedule { order.append(index) } }
            scheduler.sync {}
            #expect(order.values == Array(0..<100))
        }

        /// A screen's flush runs at the end of the turn that changed its views, not behind the work queued since.
        @Test func endOfTurnWorkRunsAfterTheTurnAndBeforeWorkQueuedDuringIt() {
            let scheduler = ScreenScheduler(label: "end-of-turn")
            let order = Collector<String>()
            scheduler.schedule {
                scheduler.schedule { order.append("queued during the turn") }
                scheduler.atEndOfTurn {
                    order.append("end of turn")
                    scheduler.atEndOfTurn { order.append("deferred by the deferred work") }
                }
                order.append("turn")
            }
            scheduler.sync {}  // after the turn, which queued its work before this returned
            scheduler.sync {}  // after that work
            #expect(order.values == ["turn", "end of turn", "deferred by the deferred work", "queued during the turn"])
        }

        @Test func endOfTurnWorkRunsInTheOrderItWasDeferred() {
            // The first deferred work is kept apart from the rest: the order must not show it.
            let scheduler = ScreenScheduler(label: "end-of-turn order")
            let order = Collector<String>()
            scheduler.schedule {
                scheduler.atEndOfTurn {
                    order.append("first")
                    scheduler.atEndOfTurn { order.append("by the first") }
                }
                scheduler.atEndOfTurn {
                    order.append("second")
                    scheduler.atEndOfTurn {
                        order.append("by the second")
                        scheduler.atEndOfTurn { order.append("by that") }
                    }
                }
                scheduler.atEndOfTurn { order.append("third") }
                order.append("turn")
            }
            scheduler.sync {}
            #expect(order.values == ["turn", "first", "second", "third", "by the first", "by the second", "by that"])
            // And again on the same lane, with one deferred work alone.
            scheduler.sync { scheduler.atEndOfTurn { order.append("alone") } }
            #expect(order.values.last == "alone")
        }

        @Test func endOfTurnWorkOfASyncCallRunsBeforeItReturnsEvenWhenItThrows() {
            struct Failure: Error {}
            let scheduler = ScreenScheduler(label: "end-of-sync")
            let order = Collector<String>()
            scheduler.sync { scheduler.atEndOfTurn { order.append("after sync's work") } }
            #expect(order.values == ["after sync's work"])
            #expect(throws: Failure.self) {
                try scheduler.sync {
                    scheduler.atEndOfTurn { order.append("after the throw") }
                    throw Failure()
                }
            }
            #expect(order.values == ["after sync's work", "after the throw"])
        }

        @Test func endOfTurnWorkRequestedOffTheSchedulerIsQueued() {
            let scheduler = ScreenScheduler(label: "end-of-turn-off")
            let ranOn = Collector<Bool>()
            scheduler.atEndOfTurn { ranOn.append(scheduler.isCurrent) }
            scheduler.sync {}
            #expect(ranOn.values == [true])
        }

        /// A screen's flush reads the screen's storage without asking the thread: end-of-turn work runs on its own
        /// scheduler whoever asks for it, in its turn, in another scheduler's turn or off any.
        @Test func endOfTurnWorkRunsOnItsOwnSchedulerFromEveryCaller() {
            let scheduler = ScreenScheduler(label: "end-of-turn-own")
            let other = ScreenScheduler(label: "end-of-turn-other")
            let ranOn = Collector<String>()
            func record(_ caller: String) -> @Sendable () -> Void {
                { ranOn.append(ScreenScheduler.current === scheduler ? caller : "\(caller) elsewhere") }
            }
            scheduler.sync { scheduler.atEndOfTurn(record("its turn")) }
            other.sync { scheduler.atEndOfTurn(record("another's turn")) }
            scheduler.atEndOfTurn(record("off any"))
            scheduler.sync {}
            #expect(ranOn.values == ["its turn", "another's turn", "off any"])
        }

        @Test func endOfTurnWorkOfAnRxActionRunsWhenTheActionReturns() {
            let scheduler = ScreenScheduler(label: "end-of-action")
            let order = Collector<String>()
            _ = scheduler.schedule(()) { _ in
                scheduler.atEndOfTurn { order.append("end of the action") }
                order.append("action")
                return Disposables.create()
            }
            scheduler.sync { order.append("next turn") }
            #expect(order.values == ["action", "end of the action", "next turn"])
        }

        /// A timer's action is a turn like any other: it finds its scheduler, and its end-of-turn work runs with it.
        @Test func aTimersActionIsATurnOfItsScheduler() {
            let scheduler = ScreenScheduler(label: "timer-turn")
            let order = Collector<String>()
            let fired = DispatchSemaphore(value: 0)
            let timer = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
                order.append(ScreenScheduler.current === scheduler ? "on its scheduler" : "elsewhere")
                scheduler.schedule { order.append("queued by the action") }
                scheduler.atEndOfTurn {
                    order.append("end of the action's turn")
                    fired.signal()
                }
                return Disposables.create()
            }
            fired.wait()
            scheduler.sync {}
            #expect(order.values == ["on its scheduler", "end of the action's turn", "queued by the action"])
            timer.dispose()
        }

        @Test func rxScheduleRunsAtOnceWhenIdleOnItsQueue() {
            let scheduler = ScreenScheduler(label: "immediate")
            let ranInline = scheduler.sync { () -> Bool in
                var ran = false
                _ = scheduler.schedule(()) { _ in
                    ran = true
                    return Disposables.create()
                }
                return ran
            }
            #expect(ranInline)
        }

        @Test func scheduleRelativeRunsLaterOnTheQueue() {
            let scheduler = ScreenScheduler(label: "later")
            let done = DispatchSemaphore(value: 0)
            let onQueue = Collector<Bool>()
            let start = Date()
            _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
                onQueue.append(scheduler.isCurrent)
                done.signal()
                return Disposables.create()
            }
            done.wait()
            #expect(Date().timeIntervalSince(start) >= 0.015)
            #expect(onQueue.values == [true])
        }

        /// Work queued by a scheduler that went away still runs, in order, as nobody's screen (the lane outlives
        /// the scheduler; its work does not keep the scheduler alive).
        @Test func workLeftByASchedulerThatWentAwayStillRuns() {
            let started = DispatchSemaphore(value: 0)
            let gate = DispatchSemaphore(value: 0)
            let ran = DispatchSemaphore(value: 0)
            let currentInLeftWork = Collector<Bool>()
            weak var released: ScreenScheduler?
            do {
                let busy = ScreenScheduler(label: "dropped-busy")
                released = busy
                busy.schedule {
                    started.signal()
                    gate.wait()
                }
                busy.schedule {
                    currentInLeftWork.append(ScreenScheduler.current == nil)
                    ran.signal()
                }
            }
            started.wait()
            #expect(released == nil)
            gate.signal()
            #expect(ran.wait(timeout: .now() + 5) == .success)
            #expect(currentInLeftWork.values == [true])
        }

        /// A `sync` caller behind queued work waits for it, runs after it and before what was queued after the
        /// call; what comes while it runs waits for it.
        @Test func syncWaitsItsTurnBehindQueuedWork() {
            let scheduler = ScreenScheduler(label: "sync-turn")
            let order = Collector<String>()
            let started = DispatchSemaphore(value: 0)
            let gate = DispatchSemaphore(value: 0)
            scheduler.schedule {
                started.signal()
                gate.wait()
                order.append("queued before")
            }
            started.wait()
            let caller = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                scheduler.sync {
                    order.append("sync")
                    #expect(scheduler.isCurrent)
                }
                caller.signal()
            }
            // The caller's request is queued behind the blocked work before this is.
            while scheduler.waitingItems == 0 { usleep(1_000) }
            scheduler.schedule { order.append("queued after") }
            gate.signal()
            #expect(caller.wait(timeout: .now() + 5) == .success)
            scheduler.sync {}
            #expect(order.values == ["queued before", "sync", "queued after"])
        }

        /// Many threads scheduling onto one scheduler and calling `sync` at once: every item runs once, one at a
        /// time, and each thread's items in the order it gave them.
        @Test func concurrentSchedulingAndSyncKeepEachThreadsOrder() {
            let scheduler = ScreenScheduler(label: "contended")
            let running = Locked(0)
            let overlaps = Locked(0)
            let order = Collector<Int>()
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<200 {
                    let item = thread * 1_000 + index
                    let work: @Sendable () -> Void = {
                        let alone = running.withLock { count in
                            count += 1
                            return count == 1
                        }
                        if !alone { overlaps.withLock { $0 += 1 } }
                        order.append(item)
                        running.withLock { $0 -= 1 }
                    }
                    if index % 10 == 0 { scheduler.sync(work) } else { scheduler.schedule(work) }
                }
            }
            scheduler.sync {}
            #expect(overlaps.withLock { $0 } == 0)
            #expect(order.values.count == 8 * 200)
            for thread in 0..<8 {
                let mine = order.values.filter { $0 / 1_000 == thread }
                #expect(mine == (0..<200).map { thread * 1_000 + $0 })
            }
        }

        @Test func releasedWhenNoLongerReferenced() {
            weak var released: ScreenScheduler?
            do {
                let scheduler = ScreenScheduler(label: "released")
                released = scheduler
                scheduler.sync {}
            }
            #expect(released == nil)
        }

        @Test func assertCurrentNamesTheMistake() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ScreenScheduler(label: "screen.7").assertCurrent("Label.text set")
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("Label.text set must run on screen scheduler screen.7"))
        }

        @Test func syncOnItselfIsAReportedProgrammerErrorNotADeadlockOrATrap() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let scheduler = ScreenScheduler(label: "self-sync")
                let value = scheduler.sync { scheduler.sync { 7 } }
                if value != 7 { exit(1) }
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("ScreenScheduler.sync was called on self-sync itself"))
        }
    }
}
