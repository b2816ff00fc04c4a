import Reactive
import Testing

extension ReactiveTests {
    @Suite struct PublishSubjectTests {
        @Test func sendsOnlyWhatComesAfterSubscription() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                subject.onNext(1)
                var received: [Event<Int>] = []
                let subscription = subject.subscribe { received.append($0) }
                subject.onNext(2)
                subject.onCompleted()
                subject.onNext(3)
                #expect(received == [.next(2), .completed])
                subscription.dispose()
            }
        }

        @Test func lateSubscriberGetsOnlyTheStopEvent() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                subject.onNext(1)
                subject.onError(TestError())
                var received: [Event<Int>] = []
                _ = subject.subscribe { received.append($0) }
                #expect(received == [.error(TestError())])
            }
        }

        @Test func disposedSubscriberReceivesNothingAndIsReleased() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                var received: [Int] = []
                let subscription = subject.subscribe(onNext: { received.append($0) })
                #expect(subject.hasObservers)
                subscription.dispose()
                #expect(!subject.hasObservers)
                subject.onNext(1)
                #expect(received.isEmpty)
            }
        }

        @Test func reentrantEmissionIsQueuedInOrderForEveryObserver() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                var first: [Int] = []
                var second: [Int] = []
                let bag = DisposeBag()
                subject.subscribe(onNext: { value in
                    first.append(value)
                    if value == 1 { subject.onNext(2) }
                })
                .disposed(by: bag)
                subject.subscribe(onNext: { second.append($0) }).disposed(by: bag)
                subject.onNext(1)
                #expect(first == [1, 2])
                #expect(second == [1, 2])
            }
        }

        @Test func disposingTheSubjectRejectsLaterSubscribers() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                subject.dispose()
                #expect(subject.isDisposed)
                var error: (any Error)?
                _ = subject.subscribe(onError: { error = $0 })
                #expect(error != nil)
            }
        }

        @Test func unsubscribingInsideOnNextStopsDelivery() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                var received: [Int] = []
                var subscription: (any Disposable)?
                subscription = subject.subscribe(onNext: { value in
                    received.append(value)
                    subscription?.dispose()
                })
                subject.onNext(1)
                subject.onNext(2)
                #expect(received == [1])
                subscription = nil
            }
        }

        @Test func aDroppedSubjectReleasesTheObserversOfSubscriptionsNobodyKept() {
            expectNoLeaks {
                final class Token {}
                weak var released: Token?
                do {
                    let subject = PublishSubject<Int>()
                    let token = Token()
                    released = token
                    _ = subject.subscribe(onNext: { _ in _ = token })
                    subject.onNext(1)
                }
                #expect(released == nil)
            }
        }

        @Test func disposingASubscriptionAfterItsSubjectIsGoneIsHarmless() {
            expectNoLeaks {
                var subscription: (any Disposable)?
                do {
                    let subject = PublishSubject<Int>()
                    subscription = subject.subscribe(onNext: { _ in })
                }
                subscription?.dispose()
                subscription = nil
            }
        }

        @Test func everySubscriberReceivesEachEventInOrder() {
            expectNoLeaks {
                let subject = PublishSubject<Int>()
                var first: [Int] = []
                var second: [Int] = []
                var third: [Int] = []
                let subscriptions = [
                    subject.subscribe(onNext: { first.append($0) }),
                    subject.subscribe(onNext: { second.append($0) }),
                    subject.subscribe(onNext: { third.append($0) }),
                ]
                subject.onNext(1)
                subscriptions[1].dispose()
                subject.onNext(2)
                #expect(first == [1, 2])
                #expect(second == [1])
                #expect(third == [1, 2])
                for subscription in subscriptions { subscription.dispose() }
            }
        }

        @Test func subscribersOfEveryCountHearEachElementAndStopInSubscriptionOrder() {
            // One and two subscribers are held without an array while delivering, three and more with one: each
            // count delivers in subscription order, skips one disposed by an earlier subscriber meanwhile, and ends.
            for count in 1...5 {
                expectNoLeaks {
                    let subject = PublishSubject<Int>()
                    var heard: [String] = []
                    var subscriptions: [any Disposable] = []
                    for index in 0..<count {
                        subscriptions.append(
                            subject.subscribe { event in
                                switch event {
                                case .next(let value):
                                    heard.append("\(index):\(value)")
                                    // The first one disposes the last one when it hears 2.
                                    if index == 0, value == 2, count > 1 { subscriptions[count - 1].dispose() }
                                case .error: heard.append("\(index):error")
                                case .completed: heard.append("\(index):done")
                                }
                            })
                    }
                    subject.onNext(1)
                    subject.onNext(2)
                    subject.onCompleted()
                    var expected = (0..<count).map { "\($0):1" }
                    expected += (0..<(count > 1 ? count - 1 : 1)).map { "\($0):2" }
                    expected += (0..<(count > 1 ? count - 1 : 1)).map { "\($0):done" }
                    #expect(heard == expected, "\(count) subscribers")
                    for subscription in subscriptions { subscription.dispose() }
                }
            }
        }
    }
}
