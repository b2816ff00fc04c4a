import Reactive
import Testing

extension ReactiveTests {
    @Suite struct UnownedTests {
        final class Owner {
            var log: [String] = []
            func configure(_ value: Int) { log.append("configure \(value)") }
            func loaded() { log.append("loaded") }
        }

        @Test func callsTheMethodOnTheOwnerWithoutRetainingIt() {
            weak var released: Owner?
            var configure: ((Int) -> Void)?
            var loaded: (() -> Void)?
            do {
                let owner = Owner()
                released = owner
                configure = unowned(owner, in: Owner.configure)
                loaded = unowned(owner, in: Owner.loaded)
                configure?(1)
                loaded?()
                #expect(owner.log == ["configure 1", "loaded"])
            }
            #expect(released == nil)
            configure = nil
            loaded = nil
        }

        @Test func aCallOfEitherFormAfterItsOwnerIsGoneDoesNothingAndIsReported() {
            let screen = ScreenScheduler(label: "unowned-released")
            let mistakes = Collector<String>()
            screen.onProgrammerError { error in mistakes.append(error.mistake) }
            var owner: Owner? = Owner()
            weak let released = owner
            let configure = unowned(owner!, in: Owner.configure)
            let loaded = unowned(owner!, in: Owner.loaded)
            configure(1)
            #expect(owner?.log == ["configure 1"])
            owner = nil
            #expect(released == nil)
            screen.sync {
                configure(2)
                loaded()
            }
            #expect(mistakes.values.count == 2)
            #expect(mistakes.values.allSatisfy { $0.contains("Owner was released") })
        }

        @Test func fitsOnNextOfAVoidSequence() {
            expectNoLeaks {
                let owner = Owner()
                let taps = PublishSubject<Void>()
                let subscription = taps.subscribe(onNext: unowned(owner, in: Owner.loaded))
                taps.onNext(())
                #expect(owner.log == ["loaded"])
                subscription.dispose()
            }
        }
    }
}
