extension Optional {
    /// Puts `value` in the cell this names: written in place when there is one, else allocated for it.
    ///
    /// One value in memory of its own, for a class whose code runs where the value's type is known only at run time
    /// (a subject's latest element: an optional or an array there looks up its type's metadata on each use, a
    /// pointer's element type comes with the instance; receipt: `SubjectCore's value cell` in
    /// Benchmarks/History/26-receipts.md).
    @inlinable @inline(__always)
    mutating func storeInCell<Value>(_ value: Value) where Wrapped == UnsafeMutablePointer<Value> {
        if let cell = self {
            cell.pointee = value
        } else {
            let cell = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            cell.initialize(to: value)
            self = cell
        }
    }

    /// Frees the cell this names, and the value in it, if there is one; names none after.
    @inlinable @inline(__always)
    mutating func freeCell<Value>() where Wrapped == UnsafeMutablePointer<Value> {
        guard let cell = self else { return }
        cell.deinitialize(count: 1)
        cell.deallocate()
        self = nil
    }
}
