import Reactive
import Testing

extension ReactiveTests {
    @Suite struct CompositeDisposableTests {
        @Test func removingAMemberDisposesItAlone() {
            expectNoLeaks {
                var log: [Int] = []
                let composite = CompositeDisposable()
                let first = composite.insert(Disposables.create { log.append(1) })
                composite.insert(Disposables.create { log.append(2) })
                #expect(composite.count == 2)
                composite.remove(for: first!)
                #expect(log == [1])
                #expect(composite.count == 1)
                composite.dispose()
                #expect(log == [1, 2])
                #expect(composite.isDisposed)
            }
        }

        @Test func insertingAfterDisposeDisposesAndReturnsNil() {
            expectNoLeaks {
                var disposed = false
                let composite = CompositeDisposable()
                composite.dispose()
                #expect(composite.insert(Disposables.create { disposed = true }) == nil)
                #expect(disposed)
            }
        }
    }
}
