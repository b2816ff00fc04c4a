import Reactive
import Testing

extension ReactiveTests {
    /// Elements travel through `create`'s observer, `AnyObserver` and the operators' sinks by `onNext`, without an
    /// `Event` made at each step; stop events still arrive by `on`.
    @Suite struct OnNextPathTests {
        /// Records which of its two entry points each event came through.
        final class EntryRecorder: ObserverType {
            var log: [String] = []

            func on(_ event: Event<Int>) {
                switch event {
                case .next(let element): log.append("on next \(element)")
                case .error: log.append("on error")
                case .completed: log.append("on completed")
                }
            }

            func onNext(_ element: Int) {
                log.append("onNext \(element)")
            }
        }

        @Test func elementsReachTheObserversOwnOnNextThroughEveryOperator() {
            expectNoLeaks {
                let recorder = EntryRecorder()
                let source = Observable<Int>.create { observer in
                    for value in [1, 2, 2, 3, 4] { observer.onNext(value) }
                    observer.onCompleted()
                    return Disposables.create()
                }
                _ = source.map { $0 * 10 }.filter { $0 != 30 }.distinctUntilChanged().subscribe(recorder)
                #expect(recorder.log == ["onNext 10", "onNext 20", "onNext 40", "on completed"])
            }
        }

        @Test func anyObserverForwardsBothEntryPoints() {
            let recorder = EntryRecorder()
            let erased = AnyObserver(recorder)
            erased.onNext(1)
            erased.on(.next(2))
            erased.onCompleted()
            #expect(recorder.log == ["onNext 1", "on next 2", "on completed"])
            // Erasing an erased observer keeps the same observer underneath.
            AnyObserver(erased).onNext(3)
            #expect(recorder.log.last == "onNext 3")
        }

        @Test func anEventHandlerObserverReceivesElementsAsEvents() {
            var events: [Event<Int>] = []
            let observer = AnyObserver<Int> { events.append($0) }
            observer.onNext(1)
            observer.onError(TestError())
            #expect(events == [.next(1), .error(TestError())])
        }

        @Test func anObserverWithoutItsOwnOnNextGetsNextEvents() {
            expectNoLeaks {
                var events: [Event<Int>] = []
                _ = Observable.of(1, 2).map { $0 + 1 }.subscribe { events.append($0) }
                #expect(events == [.next(2), .next(3), .completed])
            }
        }
    }
}
