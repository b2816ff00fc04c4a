import Dispatch
import Reactive
import Testing

extension ReactiveTests {
    @Suite struct BehaviorRelayTests {
        @Test func holdsAndReplaysItsValue() {
            expectNoLeaks {
                let relay = BehaviorRelay(value: 1)
                #expect(relay.value == 1)
                relay.accept(2)
                #expect(relay.value == 2)
                var received: [Int] = []
                let subscription = relay.subscribe(onNext: { received.append($0) })
                relay.accept(3)
                #expect(received == [2, 3])
                subscription.dispose()
            }
        }

        @Test func valueIsUpToDateAcrossThreads() {
            let relay = BehaviorRelay(value: 0)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for index in 0..<250 { relay.accept(worker * 1000 + index) }
            }
            let last = relay.value
            #expect([249, 1249, 2249, 3249].contains(last))
        }
    }
}
