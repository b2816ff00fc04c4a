import Reactive
import Testing

extension ReactiveTests {
    /// The objects a binding keeps for as long as its screen, by the malloc chunks they take: a live screen keeps a
    /// dozen of them (Benchmarks/History/54-screen-memory-8.md).
    @Suite struct SubscriptionSizeTests {
        #if SCREENPLAY_TSAN_LOCKS
            /// Whether Primitives' locks are the `Mutex`es these sizes are of: under ThreadSanitizer they are `NSLock`s
            /// (see the Makefile's `TSAN_FLAGS`), which make every object holding one larger.
            static let locksAreMutexes = false
        #else
            static let locksAreMutexes = true
        #endif

        @Test func aBindingToASubjectIsOneObjectOfEightyEightBytes() {
            // The observer, the entry in the subject and the subscription are one object; its queue index shares a
            // word with its flags, which keeps it out of the next size class.
            expectNoLeaks {
                let relay = PublishRelay<Int>()
                let size = Self.smallestAllocation { relay.bind(onNext: { _ in }) }
                if Self.locksAreMutexes { #expect(size <= 88) }
                var values: [Int] = []
                let subscription = relay.bind(onNext: { values.append($0) })
                relay.accept(1)
                subscription.dispose()
                relay.accept(2)
                #expect(values == [1])
            }
        }

        @Test func aBindingToAnotherSourcePairsItsObserverAndTheSourcesSubscriptionInSeventyTwoBytes() {
            // The pair holds the observer as itself rather than as an existential.
            expectNoLeaks {
                let source = Observable<Int>.never()
                #expect(Self.smallestAllocation { source.bind(onNext: { _ in }) } <= 72)
            }
        }

        @Test func disposingThePairDisposesTheSourceThenTheObserverOnce() {
            expectNoLeaks {
                var log: [String] = []
                let source = Observable<Int>.create { observer in
                    observer.onNext(1)
                    return Disposables.create { log.append("source") }
                }
                let subscription = source.subscribe(
                    onNext: { log.append("next \($0)") }, onDisposed: { log.append("observer") })
                #expect((subscription as? any Cancelable)?.isDisposed == false)
                subscription.dispose()
                subscription.dispose()
                #expect(log == ["next 1", "source", "observer"])
                #expect((subscription as? any Cancelable)?.isDisposed == true)
            }
        }

        @Test(.enabled(if: locksAreMutexes, "the sizes of objects holding a Mutex"))
        func aSinkKeepsItsFlagsBesideItsLock() {
            // `create`'s sink with an observer of one reference: the observer, the flags and the lock, the upstream.
            final class Observer: ObserverType {
                func on(_ event: Event<Int>) {}
            }
            expectNoLeaks {
                let source = Observable<Int>.create { _ in Disposables.create() }
                #expect(Self.smallestAllocation { source.subscribe(Observer()) } <= 72)
            }
        }

        @Test(.enabled(if: locksAreMutexes, "the sizes of objects holding a Mutex"))
        func aScreensLaneKeepsItsFlagsBesideItsLock() {
            let schedulers = (0..<256).map { ScreenScheduler(label: "lane.\($0)") }
            let sizes = schedulers.map { Self.mallocUsableSize(Unmanaged.passUnretained($0.laneObject).toOpaque()) }
            #expect(sizes.min() ?? 0 <= 136)
        }

        /// glibc's size of the allocation behind `pointer` (`<malloc.h>`, which Glibc does not export).
        @_silgen_name("malloc_usable_size")
        private static func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int

        /// The usable size of the objects behind many subscriptions `make` returns, all alive at once, at its
        /// smallest (glibc now and then hands out a larger chunk than a request needs); disposes them after.
        private static func smallestAllocation(_ make: () -> any Disposable) -> Int {
            let subscriptions = (0..<256).map { _ in make() }
            defer { for subscription in subscriptions { subscription.dispose() } }
            return subscriptions.map { mallocUsableSize(Unmanaged.passUnretained($0 as AnyObject).toOpaque()) }.min()
                ?? 0
        }
    }
}
