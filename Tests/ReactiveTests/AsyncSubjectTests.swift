import Reactive
import ReactiveTesting
import Testing

extension ReactiveTests {
    @Suite struct AsyncSubjectTests {
        @Test func sendsTheLastElementAtCompletion() {
            expectNoLeaks {
                let subject = AsyncSubject<Int>()
                var early: [Event<Int>] = []
                var late: [Event<Int>] = []
                let subscription = subject.subscribe { early.append($0) }
                subject.onNext(1)
                subject.onNext(2)
                #expect(early == [])
                subject.onCompleted()
                subject.onNext(3)
                _ = subject.subscribe { late.append($0) }
                #expect(early == [.next(2), .completed])
                #expect(late == [.next(2), .completed])
                subscription.dispose()
            }
        }

        @Test func anErrorReachesEverySubscriberWithoutTheElement() {
            expectNoLeaks {
                let subject = AsyncSubject<Int>()
                var events: [Event<Int>] = []
                _ = subject.subscribe { events.append($0) }
                subject.onNext(1)
                subject.onError(TestError())
                _ = subject.subscribe { events.append($0) }
                #expect(events == [.error(TestError()), .error(TestError())])
            }
        }

        @Test func completingEmptySendsOnlyCompletion() {
            expectNoLeaks {
                let subject = AsyncSubject<Int>()
                var events: [Event<Int>] = []
                let subscription = subject.subscribe { events.append($0) }
                #expect(subject.hasObservers)
                subject.onCompleted()
                #expect(events == [.completed])
                #expect(!subject.hasObservers)
                subscription.dispose()
            }
        }

        @Test func disposingTheSubscriptionStopsDelivery() {
            expectNoLeaks {
                let subject = AsyncSubject<Int>()
                var events: [Event<Int>] = []
                subject.subscribe { events.append($0) }.dispose()
                subject.onNext(1)
                subject.onCompleted()
                #expect(events == [])
            }
        }
    }
}
