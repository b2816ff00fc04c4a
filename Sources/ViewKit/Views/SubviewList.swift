/// A view's subviews in order, as the view stores them: none, one held directly, or an array.
///
/// One word, as the `[View]` it replaces: a view with one subview (a list's cell around its link, a container around a
/// child screen's view) keeps it without an array's allocation, which a live screen would keep for its whole life
/// (Benchmarks/History/45-screen-memory-4.md). Reading it as ``array`` makes that allocation, so walks over a tree
/// iterate the list itself.
package struct SubviewList: RandomAccessCollection {
    fileprivate enum Storage {
        case none
        case one(View)
        case many([View])
    }

    private var storage: Storage

    /// No subviews.
    package init() {
        storage = .none
    }

    /// The views of `views`, in order.
    package init(_ views: [View]) {
        switch views.count {
        case 0: storage = .none
        case 1: storage = .one(views[0])
        default: storage = .many(views)
        }
    }

    package var startIndex: Int { 0 }

    package var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let views): views.count
        }
    }

    package var count: Int { endIndex }

    package var isEmpty: Bool {
        switch storage {
        case .none: true
        case .one: false
        case .many(let views): views.isEmpty
        }
    }

    package var first: View? {
        switch storage {
        case .none: nil
        case .one(let view): view
        case .many(let views): views.first
        }
    }

    /// The subview at `position`, which must be a valid index: past the end it traps, as an array's subscript does
    /// (the `RandomAccessCollection` contract). Package only: app code reads subviews through `View.subviews`, an
    /// array, and ViewKit's walks stay within `count`.
    package subscript(position: Int) -> View {
        switch storage {
        case .one(let view):
            precondition(position == 0, "Index out of range")
            return view
        case .many(let views):
            return views[position]
        case .none:
            preconditionFailure("Index out of range")
        }
    }

    /// The subview at `position`, or `nil` past the end: one look at the list where `count` and the subscript are two.
    package func subview(at position: Int) -> View? {
        switch storage {
        case .none: nil
        case .one(let view): position == 0 ? view : nil
        case .many(let views): views.indices.contains(position) ? views[position] : nil
        }
    }

    /// The subviews as an array (an allocation for one subview: for public API, not for walks).
    package var array: [View] {
        switch storage {
        case .none: []
        case .one(let view): [view]
        case .many(let views): views
        }
    }

    /// Hands out the views in order; decides between one and many once, not at each step.
    package struct Iterator: IteratorProtocol {
        private var single: View?
        private let views: [View]
        private var index = 0

        fileprivate init(_ storage: Storage) {
            switch storage {
            case .none:
                single = nil
                views = []
            case .one(let view):
                single = view
                views = []
            case .many(let all):
                single = nil
                views = all
            }
        }

        package mutating func next() -> View? {
            if let view = single {
                single = nil
                return view
            }
            guard index < views.count else { return nil }
            defer { index += 1 }
            return views[index]
        }
    }

    package func makeIterator() -> Iterator { Iterator(storage) }

    /// The first non-nil result of `transform` over the views in order, deciding between one and many once: for walks
    /// that stop at what they look for, such as an outlet look-up (Benchmarks/History/47).
    @inline(__always)
    package func firstResult<Result>(_ transform: (View) throws -> Result?) rethrows -> Result? {
        switch storage {
        case .none:
            return nil
        case .one(let view):
            return try transform(view)
        case .many(let views):
            for view in views {
                if let result = try transform(view) { return result }
            }
            return nil
        }
    }

    /// Calls `body` with each view in order, deciding between one and many once: for walks that visit every
    /// subview, where the iterator copies the storage into its fields first (Benchmarks/History/47).
    @inline(__always)
    package func forEach(_ body: (View) throws -> Void) rethrows {
        switch storage {
        case .none: return
        case .one(let view): try body(view)
        case .many(let views): for view in views { try body(view) }
        }
    }

    /// Calls `body` with the views in place, in order, none of them retained for it: for `dirtyChildIndex(of:)`, which
    /// compares references as the array's buffer served it before (receipt: Benchmarks/History/45-screen-memory-4.md).
    /// Other walks iterate the list: its iterator costs a page's render fewer instructions there. The buffer is valid
    /// inside `body` only; `body` must not change this list.
    @inline(__always)
    package func withViews<Result>(_ body: (UnsafeBufferPointer<View>) throws -> Result) rethrows -> Result {
        switch storage {
        case .none:
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        case .one(let view):
            return try withUnsafePointer(to: view) { try body(UnsafeBufferPointer(start: $0, count: 1)) }
        case .many(let views):
            return try views.withUnsafeBufferPointer(body)
        }
    }

    /// Makes room for `count` subviews in all when that takes an array (two or more), so attaching them allocates once.
    package mutating func reserveCapacity(_ capacity: Int) {
        guard capacity > 1 else { return }
        switch storage {
        case .none:
            var views: [View] = []
            views.reserveCapacity(capacity)
            storage = .many(views)
        case .one(let view):
            var views: [View] = []
            views.reserveCapacity(capacity)
            views.append(view)
            storage = .many(views)
        case .many(var views):
            storage = .none
            views.reserveCapacity(capacity)
            storage = .many(views)
        }
    }

    /// Appends `view`, taking the caller's reference into the list.
    package mutating func append(_ view: consuming View) {
        switch storage {
        case .none:
            storage = .one(view)
        case .one(let first):
            storage = .many([first, view])
        case .many(var views):
            // Unique while it is out of the storage: appending does not copy it.
            storage = .none
            views.append(view)
            storage = .many(views)
        }
    }

    package mutating func insert(_ view: View, at index: Int) {
        guard index != count else { return append(view) }
        var views = takeArray()
        views.insert(view, at: index)
        storage = .many(views)
    }

    @discardableResult
    package mutating func remove(at index: Int) -> View {
        var views = takeArray()
        let view = views.remove(at: index)
        self = SubviewList(views)
        return view
    }

    package mutating func removeAll(where shouldBeRemoved: (View) throws -> Bool) rethrows {
        var views = takeArray()
        try views.removeAll(where: shouldBeRemoved)
        self = SubviewList(views)
    }

    /// The views as an array, leaving none here: the array is unique, so changing it copies nothing.
    private mutating func takeArray() -> [View] {
        let views = array
        storage = .none
        return views
    }
}
