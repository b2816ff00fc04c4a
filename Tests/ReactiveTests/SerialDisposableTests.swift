import Reactive
import Testing

extension ReactiveTests {
    @Suite struct SerialDisposableTests {
        @Test func replacingDisposesThePrevious() {
            expectNoLeaks {
                var log: [Int] = []
                let serial = SerialDisposable()
                serial.disposable = Disposables.create { log.append(1) }
                serial.disposable = Disposables.create { log.append(2) }
                #expect(log == [1])
                serial.dispose()
                #expect(log == [1, 2])
                serial.disposable = Disposables.create { log.append(3) }
                #expect(log == [1, 2, 3])
                #expect(serial.isDisposed)
            }
        }
    }
}
