extension String {
    /// Calls `body` once with the string's bytes in UTF-8, read in place when the string holds them contiguously (every
    /// native and small string does), and from a contiguous copy otherwise.
    ///
    /// For a string the caller cannot mutate: `withUTF8` is `mutating`, so calling it on a `let` means a mutable copy
    /// of the string first, a retain and a release of its storage on every call (Benchmarks/History/46).
    @inlinable @inline(__always)
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        // `Result?`: a body returning nil gives `.some(nil)`, not the `nil` of a string without contiguous bytes.
        if let inPlace = try utf8.withContiguousStorageIfAvailable(body) { return inPlace }
        var copy = self
        return try copy.withUTF8(body)
    }
}
