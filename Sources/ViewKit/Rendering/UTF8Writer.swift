import Primitives

/// Writes UTF-8 into memory sized for it beforehand: texts and decimal numbers one after another, checked against
/// the room given. For bytes made on every screen of a fan-out (an event's framing, a header's subtitle): no array
/// grows and no `String` checks grapheme boundaries at each join.
///
/// ```swift
/// let line = String(unsafeUninitializedCapacity: UTF8Writer.decimalCount(year) + 4 + genre.utf8.count) { storage in
///     var writer = UTF8Writer(storage)
///     writer.append(year)
///     writer.append(" · ")
///     writer.append(utf8Of: genre)
///     return writer.count
/// }
/// ```
// `@inlinable`: its callers are in other modules (an event's framing, the movie app's subtitle), and each piece is
// a copy of a few bytes, smaller inlined than a call.
package struct UTF8Writer {
    @usableFromInline let storage: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes were written.
    package internal(set) var count = 0

    @inlinable @inline(__always)
    package init(_ storage: UnsafeMutableBufferPointer<UInt8>) {
        self.storage = storage
    }

    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A `String`'s bytes. (Labelled: unlabelled, a literal would pick this over the `StaticString` overload.)
    @inlinable @inline(__always)
    package mutating func append(utf8Of text: String) {
        text.withUTF8Bytes { append(UnsafeRawBufferPointer($0)) }
    }

    @inlinable @inline(__always)
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// How many bytes `append(number)` writes.
    @inlinable @inline(__always)
    package static func decimalCount(_ number: Int) -> Int {
        var count = number < 0 ? 2 : 1
        var rest = number.magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    /// Writes `number` in decimal, with a `-` when negative.
    @inlinable @inline(__always)
    package mutating func append(_ number: Int) {
        let digits = Self.decimalCount(number)
        precondition(count + digits <= storage.count, "UTF8Writer: more bytes than the room given")
        var rest = number.magnitude
        var at = count + digits
        repeat {
            at -= 1
            storage[at] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if number < 0 { storage[count] = UInt8(ascii: "-") }
        count += digits
    }

    @inlinable @inline(__always)
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= storage.count, "UTF8Writer: more bytes than the room given")
        (storage.baseAddress! + count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }
}
