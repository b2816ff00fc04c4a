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
