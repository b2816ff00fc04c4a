import Dispatch
import Screenplay
import Synchronization
import Testing
import TodoApp

@Suite struct TodoStoreTests {
    @Test func publishesTheListNowAndAfterEveryWrite() {
        let store = TodoStore()
        let heard = Mutex<[[String]]>([])
        let subscription = store.changes.subscribe(onNext: { items in
            heard.withLock { $0.append(items.map { $0.title + ($0.isDone ? "✓" : "") }) }
        })
        defer { subscription.dispose() }
        store.add("Dishes", by: "alice")
        store.add("  ", by: "alice")
        store.add(" Laundry ", by: "bob")
        store.markDone(1)
        store.markDone(1)
        store.clearDone()
        store.clearDone()
        #expect(
            heard.withLock { $0 } == [[], ["Dishes"], ["Dishes", "Laundry"], ["Dishes✓", "Laundry"], ["Laundry"]])
    }

    @Test func writersOnManyThreadsEndWithTheNewestListDelivered() {
        let store = TodoStore()
        let last = Mutex<[TodoItem]>([])
        let subscription = store.changes.subscribe(onNext: { items in last.withLock { $0 = items } })
        defer { subscription.dispose() }
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            store.add("Item \(index)", by: "user\(index % 4)")
            if index % 3 == 0 { store.markDone(index / 2 + 1) }
        }
        #expect(store.items.count == 200)
        #expect(Set(store.items.map(\.id)).count == 200)
        #expect(last.withLock { $0 } == store.items)
    }
}
