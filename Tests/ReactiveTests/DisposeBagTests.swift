import Foundation
import Reactive
import Testing

extension ReactiveTests {
    @Suite struct DisposeBagTests {
        @Test func disposesEverythingOnDeinitInOrder() {
            expectNoLeaks {
                var log: [Int] = []
                do {
                    let bag = DisposeBag()
                    bag.insert(Disposables.create { log.append(1) }, Disposables.create { log.append(2) })
                    Disposables.create { log.append(3) }.disposed(by: bag)
                    #expect(log.isEmpty)
                }
                #expect(log == [1, 2, 3])
            }
        }

        /// A disposable of a value type is disposed in its turn with the others.
        @Test func aValueTypeDisposableIsDisposedInOrderWithTheOthers() {
            struct Note: Disposable {
                let log: Collector<Int>
                let index: Int
                func dispose() { log.append(index) }
            }
            let log = Collector<Int>()
            do {
                let bag = DisposeBag()
                bag.insert(Disposables.create { log.append(1) })
                bag.insert(Note(log: log, index: 2))
                bag.insert([Disposables.create { log.append(3) }, Note(log: log, index: 4)])
                #expect(log.values.isEmpty)
            }
            #expect(log.values == [1, 2, 3, 4])
        }

        @Test func aCompactedBagKeepsEverythingInOrderAndTakesMore() {
            expectNoLeaks {
                var log: [Int] = []
                do {
                    let bag = DisposeBag()
                    for index in 1...5 { bag.insert(Disposables.create { log.append(index) }) }
                    // Room for five or more: how far appends grow the storage depends on what the allocator hands
                    // back, so the bag may hold exactly five already; compacting must leave it so either way.
                    #expect(bag.capacity >= 5)
                    bag.compact()
                    #expect(bag.capacity == 5)
                    bag.insert(Disposables.create { log.append(6) })
                    bag.compact()
                    #expect(log.isEmpty)
                }
                #expect(log == [1, 2, 3, 4, 5, 6])
            }
        }

        @Test func aCompactedBagKeepsItsObjectsInTwoWordsAndDisposesInOrder() {
            // A value among the items keeps them as they are; objects only are kept as objects; later insertions
            // come after them, whatever they are.
            struct Value: Disposable {
                let log: Collector<Int>
                let index: Int
                func dispose() { log.append(index) }
            }
            let log = Collector<Int>()
            let word = MemoryLayout<Int>.size
            do {
                let bag = DisposeBag()
                bag.insert(Disposables.create { log.append(1) })
                bag.insert(Value(log: log, index: 2))
                bag.compact()
                #expect(bag.elementBytes == 2 * 5 * word)
            }
            #expect(log.values == [1, 2])
            expectNoLeaks {
                do {
                    let bag = DisposeBag()
                    for index in 3...5 { bag.insert(Disposables.create { log.append(index) }) }
                    bag.compact()
                    #expect(bag.elementBytes == 3 * 2 * word)
                    bag.insert(Value(log: log, index: 6))
                    bag.insert(Disposables.create { log.append(7) })
                    #expect(bag.contents.count == 5)
                    bag.compact()
                    #expect(bag.elementBytes == 3 * 2 * word + 2 * 5 * word)
                    bag.insert(Disposables.create { log.append(8) })
                    #expect(log.values == [1, 2])
                }
                #expect(log.values == Array(1...8))
            }
        }

        @Test func insertingIntoADisposedBagDisposesAtOnce() {
            expectNoLeaks {
                var disposed = false
                let bag = DisposeBag()
                bag.dispose()
                bag.insert(Disposables.create { disposed = true })
                #expect(disposed)
            }
        }

        @Test func disposalThatTouchesTheBagDoesNotDeadlock() {
            expectNoLeaks {
                let bag = DisposeBag()
                var reentered = false
                bag.insert(
                    Disposables.create {
                        bag.insert(Disposables.create { reentered = true })
                    })
                bag.dispose()
                #expect(reentered)
            }
        }

        @Test func subscriptionsEndWithTheBag() {
            expectNoLeaks {
                let relay = PublishRelay<Int>()
                var received: [Int] = []
                var bag: DisposeBag? = DisposeBag()
                relay.subscribe(onNext: { received.append($0) }).disposed(by: bag!)
                relay.accept(1)
                bag = nil
                relay.accept(2)
                #expect(received == [1])
            }
        }

        @Test func concurrentInsertsAreAllDisposed() {
            let disposed = Collector<Int>()
            do {
                let bag = DisposeBag()
                DispatchQueue.concurrentPerform(iterations: 8) { worker in
                    for index in 0..<200 {
                        bag.insert(Disposables.create { disposed.append(worker * 1000 + index) })
                    }
                }
            }
            #expect(disposed.values.count == 1600)
            #expect(Set(disposed.values).count == 1600)
        }
    }
}

extension ReactiveTests {
    @Suite struct ArrayCapacityTests {
        /// `Array(array)` shares the storage it copies, spare room included; trimming makes storage of the right size.
        @Test func trimmingCapacityKeepsTheElementsInStorageOfTheirSize() {
            // Room for more than the five made first: how far appends alone grow an array depends on what the
            // allocator hands back (once in a while exactly five elements' worth), so the spare room is asked for.
            var grown: [String] = []
            grown.reserveCapacity(16)
            for index in 0..<5 { grown.append("element \(index)") }
            #expect(grown.capacity > 5)
            #expect(Array(grown).capacity == grown.capacity)
            let trimmed = grown.trimmingCapacity()
            #expect(trimmed == grown)
            #expect(trimmed.capacity == 5)
            #expect(([] as [Int]).trimmingCapacity().capacity == 0)
        }
    }
}
