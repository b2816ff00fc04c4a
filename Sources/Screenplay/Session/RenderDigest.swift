import Glibc

/// The digest of a rendered page, written on its `<html>` as `data-render` (16 hexadecimal digits): the page's
/// stream names it when it attaches, and the live screen built then from the page's token resets the page only when
/// its own render's digest differs (the data changed between the render and the subscription).
///
/// Contract: the digest is a function of the page's bytes with the digest's own 16 digits as zeros, the same on every
/// instance and architecture (words are read little-endian). It is no signature: a page that names another digest
/// only gets a reset it did not need, or misses one it needed, on its own screen.
enum RenderDigest {
    /// The attribute's value while the page is written; ``seal(_:)`` replaces it.
    static let placeholder = "0000000000000000"
    private static let marker = Array((ScreenWire.Attribute.render.rawValue + "=\"").utf8)

    /// Writes the digest of `html` over the placeholder of its `data-render` attribute (the first one: the
    /// attribute is written on the start tag of `<html>`, before any content) and answers it, as the number its
    /// digits spell (``digits(of:)``); nil when `html` has no such attribute. Kept as the number, the digest of a
    /// page is no string of its own (sixteen digits are one more than a string holds without an allocation).
    @discardableResult
    static func seal(_ html: inout [UInt8]) -> UInt64? {
        guard let start = offset(in: html), start + 16 <= html.count else { return nil }
        let hash = hash(of: html)
        // The digits worked out from the number and written by index: taking them from the string's enumerated UTF-8
        // view stepped its iterator for each (Benchmarks/History/50).
        for index in 0..<16 { html[start + index] = digit(index, of: hash) }
        return hash
    }

    /// The digest `seal(_:)` wrote into `html`; nil when it has none, or its digits are not a digest's.
    static func read(from html: [UInt8]) -> UInt64? {
        guard let start = offset(in: html), start + 16 <= html.count else { return nil }
        return parse(String(decoding: html[start..<(start + 16)], as: UTF8.self))
    }

    /// The digest whose digits (``digits(of:)``) `text` is: exactly 16 lowercase hexadecimal digits, else nil (a
    /// page's `render` field as the client sends it back). The standard library reads the number; the check before
    /// it refuses what it would also take (capitals, a sign).
    static func parse(_ text: String) -> UInt64? {
        guard text.utf8.count == 16,
            text.utf8.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        else { return nil }
        return UInt64(text, radix: 16)
    }

    /// Where the digits of the first `data-render="…"` of `html` start. Found over the array's and the marker's
    /// contiguous bytes, both only read, by glibc's `memchr` (the marker's first byte) and `memcmp` (the rest) at
    /// offsets where the whole marker fits: a page's two look-ups (the seal, then the router's read) compared a slice
    /// at every byte before it (receipt: `RenderDigest.offset` in Benchmarks/History/35-page-instructions.md).
    private static func offset(in html: [UInt8]) -> Int? {
        html.withUnsafeBytes { page in
            marker.withUnsafeBytes { marker -> Int? in
                guard let start = page.baseAddress, let wanted = marker.baseAddress, page.count >= marker.count else {
                    return nil
                }
                let last = page.count - marker.count
                var index = 0
                while index <= last {
                    guard let found = memchr(start + index, Int32(marker[0]), last - index + 1) else { return nil }
                    index = UnsafeRawPointer(found) - start
                    if memcmp(start + index, wanted, marker.count) == 0 { return index + marker.count }
                    index += 1
                }
                return nil
            }
        }
    }

    /// 64 bits of a folded-multiply hash over `bytes`, sixteen at a time, as 16 lowercase hexadecimal digits.
    ///
    /// Each step multiplies two words of the page (each mixed with a constant or the hash so far) into 128 bits and
    /// folds the halves together, so a step takes sixteen bytes for one multiplication (as wyhash does); the last
    /// fifteen or fewer bytes and the length go into one more step, and a final mix spreads every bit. Words are read
    /// with `loadUnaligned` only at offsets where eight bytes remain (`index + 8 <= count`), and the string is written
    /// through its sixteen bytes of capacity exactly (receipt: the digest's share of a page in
    /// Benchmarks/History/30-pages-are-renders.md; sixteen bytes a step in Benchmarks/History/50-page-instructions-7.md).
    static func hexadecimal(of bytes: [UInt8]) -> String {
        digits(of: hash(of: bytes))
    }

    /// The 64 bits ``hexadecimal(of:)`` writes.
    private static func hash(of bytes: [UInt8]) -> UInt64 {
        let hash = bytes.withUnsafeBytes { raw -> UInt64 in
            let count = raw.count
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
            var first: UInt64 = 0
            var second: UInt64 = 0
            // The address read once and the hash kept in a local: the loop tested the address and stored the hash
            // through the closure's capture at every step.
            if let base = raw.baseAddress {
                var index = 0
                while index &+ 16 <= count {
                    let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    let next = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self))
                    hash = fold(word ^ 0xA076_1D64_78BD_642F, next ^ hash)
                    index &+= 16
                }
                // The last fifteen bytes or fewer: a whole word when eight remain, the rest byte by byte.
                if index &+ 8 <= count {
                    first = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    index &+= 8
                }
                var shift: UInt64 = 0
                while index < count {
                    second |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) &<< shift
                    shift &+= 8
                    index &+= 1
                }
            }
            hash = fold(first ^ 0xE703_7ED1_A0B4_28DB, second ^ hash)
            return fold(hash ^ 0x8EBC_6AF0_9C88_C6E3, UInt64(count) ^ 0x5899_65CC_7537_4CC3)
        }
        return hash ^ hash >> 32
    }

    /// `hash` as 16 lowercase hexadecimal digits: the digest as the page carries it. Invariant of the uninitialized
    /// string: its sixteen bytes are each written with an ASCII digit before it is returned (receipt: the digest's
    /// share of a page in Benchmarks/History/30-pages-are-renders.md).
    static func digits(of hash: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = digit(index, of: hash) }
            return 16
        }
    }

    /// The `index`th of `hash`'s 16 lowercase hexadecimal digits, from the most significant.
    @inline(__always)
    private static func digit(_ index: Int, of hash: UInt64) -> UInt8 {
        let digit = UInt8(truncatingIfNeeded: hash >> UInt64(60 - 4 * index)) & 0xF
        return digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
    }

    /// The 128-bit product of `first` and `second`, its halves folded into one word.
    @inline(__always)
    private static func fold(_ first: UInt64, _ second: UInt64) -> UInt64 {
        let product = first.multipliedFullWidth(by: second)
        return product.high ^ product.low
    }
}
