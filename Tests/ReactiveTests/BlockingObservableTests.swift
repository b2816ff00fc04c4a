import Dispatch
import Primitives
import Reactive
import ReactiveTesting
import TestSupport
import Testing

extension ReactiveTests {
    @Suite struct BlockingObservableTests {
        @Test func readsASynchronousSequence() throws {
            try expectNoLeaks {
                let source = Observable.of(1, 2, 3)
                let array = try source.toBlocking().toArray()
                let first = try source.toBlocking().first()
                let last = try source.toBlocking().last()
                let single = try source.toBlocking().single { $0 == 2 }
                let none = try Observable<Int>.empty().toBlocking().first()
                #expect(array == [1, 2, 3])
                #expect(first == 1)
                #expect(last == 3)
                #expect(single == 2)
                #expect(none == nil)
            }
        }

        @Test func singleThrowsForNoneOrMany() {
            expectNoLeaks {
                #expect(throws: RxError.self) { try Observable.of(1, 2).toBlocking().single() }
                #expect(throws: RxError.self) { try Observable<Int>.empty().toBlocking().single() }
            }
        }

        @Test func materializeReportsHowTheSequenceStopped() {
            expectNoLeaks {
                let failing = Observable.of(1).concat(Observable<Int>.error(TestError()))
                guard case .failed(let elements, let error) = failing.toBlocking().materialize() else {
                    Issue.record("expected a failure")
                    return
                }
                #expect(elements == [1])
                #expect(error as? TestError == TestError())
                guard case .completed(let all) = Observable.of(4, 5).toBlocking().materialize() else {
                    Issue.record("expected completion")
                    return
                }
                #expect(all == [4, 5])
            }
        }

        @Test func waitsForASequenceOnAnotherThread() throws {
            try expectNoLeaks {
                let source = Observable<Int>.create { observer in
                    let transfer = Transfer(observer)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                        transfer.value.onNext(7)
                        transfer.value.onCompleted()
                    }
                    return Disposables.create()
                }
                let before = Resources.total
                let elements = try source.toBlocking(timeout: 5).toArray()
                #expect(elements == [7])
                // The other thread lets go of the observer once its work item has returned.
                #expect(eventually { Resources.total <= before })
            }
        }

        @Test func throwsTimeoutWhenTheSequenceDoesNotStopInTime() {
            expectNoLeaks {
                #expect(throws: RxError.self) { try Observable<Int>.never().toBlocking(timeout: 0.05).toArray() }
                guard case .failed(_, let error) = Observable<Int>.never().toBlocking(timeout: 0.01).materialize()
                else {
                    Issue.record("expected a timeout")
                    return
                }
                #expect("\(error)" == "\(RxError.timeout)")
            }
        }
    }
}
