import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct UsingTests {
        /// A resource that records when it was disposed.
        final class Resource: Disposable {
            let scheduler: TestScheduler
            var disposedAt: [Int] = []

            init(scheduler: TestScheduler) { self.scheduler = scheduler }

            func dispose() { disposedAt.append(scheduler.clock) }
        }

        @Test func disposesTheResourceWhenTheSequenceStops() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var resource: Resource?
                let source = scheduler.createColdObservable([.next(10, 1), .completed(50)])
                let observer = scheduler.start {
                    Observable.using(
                        { () -> Resource in
                            let made = Resource(scheduler: scheduler)
                            resource = made
                            return made
                        }, observableFactory: { _ in source.asObservable() })
                }
                #expect(observer.events == [.next(210, 1), .completed(250)])
                #expect(resource?.disposedAt == [250])
            }
        }

        @Test func disposesTheResourceOnDisposal() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                var resource: Resource?
                let observer = scheduler.start(disposed: 300) {
                    Single<Int>.using(
                        { () -> Resource in
                            let made = Resource(scheduler: scheduler)
                            resource = made
                            return made
                        }, primitiveSequenceFactory: { _ in .never() })
                }
                #expect(observer.events == [])
                #expect(resource?.disposedAt == [300])
            }
        }

        @Test func aThrowingFactoryFailsAndDisposesTheResource() {
            expectNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let resource = Resource(scheduler: scheduler)
                let observer = scheduler.start {
                    Observable<Int>.using({ resource }, observableFactory: { _ in throw TestError() })
                }
                #expect(observer.events == [.error(200, TestError())])
                #expect(resource.disposedAt == [200])
            }
        }
    }
}
