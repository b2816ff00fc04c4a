import Reactive
import Testing

extension ReactiveTests {
    @Suite struct DisposablesTests {
        @Test func anonymousDisposableRunsItsActionOnce() {
            expectNoLeaks {
                var count = 0
                let disposable = Disposables.create { count += 1 }
                #expect(!disposable.isDisposed)
                disposable.dispose()
                disposable.dispose()
                #expect(count == 1)
                #expect(disposable.isDisposed)
            }
        }

        @Test func anonymousDisposableReleasesItsActionWhenDisposed() {
            weak var released: Box?
            let disposable: any Disposable
            do {
                let box = Box()
                released = box
                disposable = Disposables.create { _ = box }
            }
            #expect(released != nil)
            disposable.dispose()
            #expect(released == nil)
        }

        @Test func binaryAndArrayFormsDisposeEveryMember() {
            expectNoLeaks {
                var log: [Int] = []
                Disposables.create(Disposables.create { log.append(1) }, Disposables.create { log.append(2) })
                    .dispose()
                Disposables.create([Disposables.create { log.append(3) }, Disposables.create { log.append(4) }])
                    .dispose()
                #expect(log == [1, 2, 3, 4])
            }
        }

        @Test func singleAssignmentDisposesALateAssignment() {
            expectNoLeaks {
                var disposed = false
                let holder = SingleAssignmentDisposable()
                holder.dispose()
                holder.setDisposable(Disposables.create { disposed = true })
                #expect(disposed)
            }
        }
    }
}

/// A reference type whose lifetime tests observe with `weak`.
final class Box {}
