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

        class Base {
            var log: [String] = []
            func configure(_ value: Int) { log.append("base \(value)") }
            func loaded() { log.append("base loaded") }
        }

        final class Derived: Base {
            override func configure(_ value: Int) { log.append("derived \(value)") }
            override func loaded() { log.append("derived loaded") }
        }

        /// The method is called as the owner's (its override), each call with its own input, whether the method is a
        /// reference named at the call site or a value chosen at run time: the closure holds the method apart from
        /// its owner and calls it on the owner it reads at each call.
        @Test func callsTheOwnersOverrideWhetherTheMethodIsNamedOrChosen() {
            let owner = Derived()
            let named = unowned(owner as Base, in: Base.configure)
            let methods: [(Base) -> (Int) -> Void] = [Base.configure, { base in { base.log.append("chosen \($0)") } }]
            let chosen = methods.map { unowned(owner as Base, in: $0) }
            let loaded = unowned(owner as Base, in: Base.loaded)
            named(1)
            chosen[0](2)
            chosen[1](3)
            loaded()
            named(4)
            #expect(owner.log == ["derived 1", "derived 2", "chosen 3", "derived loaded", "derived 4"])
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
