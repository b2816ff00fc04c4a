import Reactive
import Testing

extension ReactiveTests {
    @Suite struct ReplaySubjectTests {
        @Test func replaysTheLastElementsOfTheBuffer() {
            expectNoLeaks {
                let subject = ReplaySubject<Int>.create(bufferSize: 2)
                for value in 1...4 { subject.onNext(value) }
                var received: [Int] = []
                let subscription = subject.subscribe(onNext: { received.append($0) })
                #expect(received == [3, 4])
                subject.onNext(5)
                #expect(received == [3, 4, 5])
                subscription.dispose()
            }
        }

        @Test func replaysTheBufferAndTheStopEventAfterCompletion() {
            expectNoLeaks {
                let subject = ReplaySubject<Int>.createUnbounded()
                subject.onNext(1)
                subject.onNext(2)
                subject.onCompleted()
                var received: [Event<Int>] = []
                _ = subject.subscribe { received.append($0) }
                #expect(received == [.next(1), .next(2), .completed])
            }
        }
    }
}
