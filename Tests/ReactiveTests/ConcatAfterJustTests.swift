import Reactive
import Testing

extension ReactiveTests {
    @Suite struct ConcatAfterJustTests {
        /// A first sequence that completes while it is being subscribed (`just`) used to dispose the second one it
        /// had just subscribed: `rx.text` (the current text, then the edits) heard no edit.
        @Test func aSynchronousFirstSequenceKeepsTheSecondSubscribed() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                var seen: [Int] = []
                var completed = false
                let subscription = Observable.just(1).concat(subject).subscribe(
                    onNext: { seen.append($0) }, onCompleted: { completed = true })
                subject.onNext(2)
                subject.onNext(3)
                subject.onCompleted()
                #expect(seen == [1, 2, 3])
                #expect(completed)
                subscription.dispose()
            }
        }

        @Test func disposingStopsBothSequences() {
            expectNoLeaks {
                let first = PublishSubject<Int>()
                let second = PublishSubject<Int>()
                var seen: [Int] = []
                let subscription = first.concat(second).subscribe(onNext: { seen.append($0) })
                first.onNext(1)
                first.onCompleted()
                second.onNext(2)
                subscription.dispose()
                second.onNext(3)
                #expect(seen == [1, 2])
            }
        }
    }
}
