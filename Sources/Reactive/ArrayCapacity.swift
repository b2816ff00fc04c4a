extension Array {
    /// The elements in storage of just their size, for an array filled once and then kept for long.
    ///
    /// `Array(self)` is no such copy: it shares this array's storage, the room left by growing included.
    package func trimmingCapacity() -> [Element] {
        guard capacity > count else { return self }
        var trimmed: [Element] = []
        trimmed.reserveCapacity(count)
        trimmed.append(contentsOf: self)
        return trimmed
    }
}
