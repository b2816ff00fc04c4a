import Dispatch
import Reactive
import Testing

extension ReactiveTests {
    @Suite struct BinderTests {
        final class Label {
            var text = ""
            var isHidden = false
            var setOnItsScreen: [Bool] = []
        }

        @Test func setsTheTargetSynchronouslyOnItsScreen() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "binder")
                let text = onScreen(scheduler) { () -> String in
                    let label = Label()
                    let binder = Binder(label) { label, text in label.text = text }
                    Observable.just("hello").bind(to: binder).dispose()
                    return label.text
                }
                #expect(text == "hello")
            }
        }

        @Test func hopsOntoTheScreenItWasCreatedOn() {
            expectNoLeaks {
                let scheduler = ScreenScheduler(label: "binder")
                let relay = PublishRelay<String>()
                let screen = scheduler.sync { () -> ScreenConfined<(Label, any Disposable)> in
                    let label = Label()
                    let binder = Binder(label) { label, text in
                        label.text = text
                        label.setOnItsScreen.append(scheduler.isCurrent)
                    }
                    return ScreenConfined((label, relay.bind(to: binder)), on: scheduler)
                }
                DispatchQueue.global().sync {
                    relay.accept("one")
                    relay.accept("two")
                }
                let (text, onItsScreen) = scheduler.sync { () -> (String, [Bool]) in
                    defer { screen.value.1.dispose() }
                    return (screen.value.0.text, screen.value.0.setOnItsScreen)
                }
                #expect(text == "two")
                #expect(onItsScreen == [true, true])
            }
        }

        @Test func holdsTheTargetWeakly() {
            expectNoLeaks {
                weak var released: Label?
                let relay = PublishRelay<String>()
                var calls = 0
                let subscription: any Disposable
                do {
                    let label = Label()
                    released = label
                    subscription = relay.bind(
                        to: Binder(label) { _, _ in calls += 1 })
                    relay.accept("while alive")
                }
                #expect(released == nil)
                relay.accept("after release")
                #expect(calls == 1)
                subscription.dispose()
            }
        }

        @Test func reactiveKeyPathBinder() {
            expectNoLeaks {
                final class View: ReactiveCompatible {
                    var isHidden = false
                }
                let view = View()
                Observable.just(true).bind(to: view.rx.isHidden).dispose()
                #expect(view.isHidden)
            }
        }
    }
}
