internal import Foundation
public import Reactive
internal import Synchronization

/// The shared to-do list, in memory, with a change stream every screen follows: one store for every session.
///
/// Thread-safe: any thread may read and write it. A write commits under the store's lock and is then published to
/// ``changes``, newest version winning: a thread that finds another one delivering leaves its list to it, so
/// observers are called one at a time, in commit order (maybe skipping lists a newer one replaced), with no lock
/// held — an observer may read or write the store.
///
/// ```swift
/// let store = TodoStore()
/// store.changes.subscribe(onNext: { items in print(items.count) })   // 0 at once, then after every write
/// store.add("Buy milk", by: "demo")                                   // 1
/// ```
public final class TodoStore: Sendable {
    private struct State {
        var items: [TodoItem] = []
        var nextID = 1
        var version = 0
    }

    private struct Publication {
        var newest = 0
        var pending: [TodoItem]?
        var isDelivering = false
    }

    private let state = Mutex(State())
    private let publication = Mutex(Publication())
    private let relay = BehaviorRelay<[TodoItem]>(value: [])

    /// An empty list.
    public init() {}

    /// The items now, oldest first.
    public var items: [TodoItem] { state.withLock { $0.items } }

    /// The items now, then after every write, on the writer's thread. Never fails; subscribe with
    /// `conflated(on:)` from a screen, so that a screen that falls behind gets the newest list only.
    public var changes: Observable<[TodoItem]> { relay.asObservable() }

    /// Adds an item titled `title` (trimmed) in the name of `user`; returns it, or nil for an empty title.
    @discardableResult
    public func add(_ title: String, by user: String) -> TodoItem? {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return nil }
        var added: TodoItem?
        commit { state in
            let item = TodoItem(id: state.nextID, title: title, addedBy: user)
            state.nextID += 1
            state.items.append(item)
            added = item
            return true
        }
        return added
    }

    /// Marks the item `id` done; an unknown id changes nothing.
    public func markDone(_ id: Int) {
        commit { state in
            guard let index = state.items.firstIndex(where: { $0.id == id }), !state.items[index].isDone else {
                return false
            }
            state.items[index].isDone = true
            return true
        }
    }

    /// Removes the items that are done.
    public func clearDone() {
        commit { state in
            let count = state.items.count
            state.items.removeAll(where: \.isDone)
            return state.items.count != count
        }
    }

    /// Commits `change` when it says it changed something, then publishes the list.
    private func commit(_ change: (inout State) -> Bool) {
        let committed = state.withLock { state -> (version: Int, items: [TodoItem])? in
            guard change(&state) else { return nil }
            state.version += 1
            return (state.version, state.items)
        }
        guard let committed else { return }
        publish(committed.items, version: committed.version)
    }

    private func publish(_ items: [TodoItem], version: Int) {
        let delivers = publication.withLock { publication in
            guard version > publication.newest else { return false }
            publication.newest = version
            publication.pending = items
            guard !publication.isDelivering else { return false }
            publication.isDelivering = true
            return true
        }
        guard delivers else { return }
        while let next = publication.withLock({ publication -> [TodoItem]? in
            guard let next = publication.pending else {
                publication.isDelivering = false
                return nil
            }
            publication.pending = nil
            return next
        }) {
            relay.accept(next)
        }
    }
}
