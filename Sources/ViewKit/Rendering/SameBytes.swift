#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// Whether the two strings are the same UTF-8 bytes: what a view's setter compares before it marks the view
    /// for rendering.
    ///
    /// The page shows code points, so two strings that render differently must compare different; `==` compares
    /// canonical equivalence ("é" and "e\u{301}" are equal by it) and, for text not known to be ASCII (a movie's
    /// title with a "·" in it, say), normalises both sides as it goes. Every screen of a movie compares its labels'
    /// texts on every change of the movie, so the bytes are compared here with `memcmp`.
    package func hasSameUTF8(as other: String) -> Bool {
        // The same two words: the same small string, or the same storage, count and flags, so the same bytes. A
        // label's text set to what it shows ("", a rating "8.4") is usually a small string, compared so without
        // looking at its bytes. Sound while a `String` is two words, as on every 64-bit platform (checked below in
        // debug builds). Receipt: `String's two words` in Benchmarks/History/26-receipts.md.
        assert(MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size)
        if unsafeBitCast(self, to: (UInt64, UInt64).self) == unsafeBitCast(other, to: (UInt64, UInt64).self) {
            return true
        }
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.count == theirs.count
                    && (mine.count == 0 || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0)
            }
        }
        if let compared, let compared { return compared }
        return utf8.elementsEqual(other.utf8)
    }
}

extension String {
    /// Whether the two are the same name: of the same length in UTF-8, and equal by `==`. For an ASCII name (every
    /// attribute name a view takes, and a template's outlet names) that is the same bytes. What outlet look-ups and
    /// attribute names compare: names of other lengths, the usual mismatch, are told apart by their counts alone,
    /// without a call into the string comparison (Benchmarks/History/67).
    @inline(__always)
    package func isSameName(as other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }
}

extension String {
    /// Whether the two strings are the same text, code point for code point.
    ///
    /// `==` compares canonical equivalence: it calls "é" and "e\u{301}" (an "e" and a combining accent) equal, though a
    /// page shows them as different code points. This is what a view's setter asks before it marks itself for
    /// rendering; ask it where an app decides whether a text changed (a driver's `distinctUntilChanged`, a binder
    /// that builds strings again only for a new title). Two strings that share their storage compare without reading
    /// it, so a value handed unchanged to every screen of a fan-out costs almost nothing to compare.
    ///
    /// ```swift
    /// driver.data.map(\.title).distinctUntilChanged { $0.isSameText(as: $1) }
    /// ```
    public func isSameText(as other: String) -> Bool { hasSameUTF8(as: other) }
}

extension [String] {
    /// Whether both hold the same texts in the same order, each compared by ``Swift/String/isSameText(as:)``.
    public func isSameText(as other: [String]) -> Bool { hasSameUTF8(as: other) }
}

extension String? {
    /// ``Swift/String/hasSameUTF8(as:)`` for optional strings: two `nil`s are the same, `nil` and a string are not.
    package func hasSameUTF8(as other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let mine?, let theirs?): mine.hasSameUTF8(as: theirs)
        default: false
        }
    }
}

extension [String] {
    /// Whether both hold the same strings, each the same UTF-8 bytes (``Swift/String/hasSameUTF8(as:)``).
    package func hasSameUTF8(as other: [String]) -> Bool {
        guard count == other.count else { return false }
        // The same storage holds the same strings: a movie's tips and genres, handed unchanged to every screen of it.
        let sameStorage = withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
        return sameStorage || zip(self, other).allSatisfy { $0.hasSameUTF8(as: $1) }
    }
}

extension [UInt8] {
    /// Whether both are the same bytes, compared with `memcmp`.
    package func hasSameBytes(as other: [UInt8]) -> Bool {
        withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in
                // One buffer (a label's markup that the screens of a fan-out share) is compared without reading it.
                mine.count == theirs.count
                    && (mine.count == 0 || mine.baseAddress == theirs.baseAddress
                        || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0)
            }
        }
    }
}
