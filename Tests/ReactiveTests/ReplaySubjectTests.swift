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

        /// One element kept: a subject that replays one keeps it apart from the buffer of longer replays.
        @Test func aBufferOfOneReplaysTheLatestBeforeAndAfterTheStop() {
            expectNoLeaks {
                let subject = ReplaySubject<String>.create(bufferSize: 1)
                var early: [Event<String>] = []
                let first = subject.subscribe { early.append($0) }
                #expect(early.isEmpty)
                for value in ["a", "b", "c"] { subject.onNext(value) }
                var late: [Event<String>] = []
                let second = subject.subscribe { late.append($0) }
                #expect(late == [.next("c")])
                subject.onNext("d")
                subject.onError(TestError(code: 7))
                var afterStop: [Event<String>] = []
                _ = subject.subscribe { afterStop.append($0) }
                #expect(afterStop == [.next("d"), .error(TestError(code: 7))])
                #expect(early == [.next("a"), .next("b"), .next("c"), .next("d"), .error(TestError(code: 7))])
                #expect(late == [.next("c"), .next("d"), .error(TestError(code: 7))])
                first.dispose()
                second.dispose()
            }
        }

        @Test func aDisposedSubjectOfOneFailsNewSubscribers() {
            let subject = ReplaySubject<Int>.create(bufferSize: 1)
            subject.onNext(1)
            subject.dispose()
            var received: [Event<Int>] = []
            _ = subject.subscribe { received.append($0) }
            #expect(received.count == 1)
            if case .error(let error)? = received.first {
                #expect(error is RxError)
            } else {
                Issue.record("expected an error, got \(received)")
            }
        }
    }
}
