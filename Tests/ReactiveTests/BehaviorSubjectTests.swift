import Reactive
import Testing

extension ReactiveTests {
    @Suite struct BehaviorSubjectTests {
        @Test func replaysTheCurrentValueThenFollows() {
            expectNoLeaks {
                let subject = BehaviorSubject(value: 1)
                subject.onNext(2)
                var received: [Int] = []
                let subscription = subject.subscribe(onNext: { received.append($0) })
                #expect(received == [2])
                subject.onNext(3)
                #expect(received == [2, 3])
                #expect((try? subject.value()) == 3)
                subscription.dispose()
            }
        }

        @Test func afterCompletionSendsOnlyTheStopEvent() {
            expectNoLeaks {
                let subject = BehaviorSubject(value: 1)
                subject.onCompleted()
                var received: [Event<Int>] = []
                _ = subject.subscribe { received.append($0) }
                #expect(received == [.completed])
            }
        }

        @Test func valueThrowsTheFailure() {
            let subject = BehaviorSubject(value: 1)
            subject.onError(TestError(code: 7))
            #expect(throws: TestError(code: 7)) { try subject.value() }
        }
    }
}
