import Reactive
import Testing

extension ReactiveTests {
    @Suite struct PublishRelayTests {
        @Test func acceptSendsToCurrentSubscribers() {
            expectNoLeaks {
                let relay = PublishRelay<String>()
                relay.accept("before")
                var received: [String] = []
                let subscription = relay.subscribe(onNext: { received.append($0) })
                relay.accept("after")
                #expect(received == ["after"])
                subscription.dispose()
            }
        }
    }
}
