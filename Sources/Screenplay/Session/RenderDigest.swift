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
    /// attribute is written on the start tag of `<html>`, before any content) and answers it; nil when `html` has
    /// no such attribute.
    @discardableResult
    static func seal(_ html: inout [UInt8]) -> String? {
        guard let start = offset(in: html), start + 16 <= html.count else { return nil }
        let digest = hexadecimal(of: html)
        for (index, byte) in digest.utf8.enumerated() { html[start + index] = byte }
        return digest
    }

    /// The digest `seal(_:)` wrote into `html`; nil when it has none.
    static func read(from html: [UInt8]) -> String? {
        guard let start = offset(in: html), start + 16 <= html.count else { return nil }
        return String(decoding: html[start..<(start + 16)], as: UTF8.self)
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

    /// 64 bits of a multiply-and-rotate hash over `bytes`, eight at a time, as 16 lowercase hexadecimal digits.
    ///
    /// Words are read with `loadUnaligned` only at offsets where eight bytes remain (`index + 8 <= count`), and the
    /// string is written through its 16 bytes of capacity exactly; a page's digest costs a few instructions a word
    /// (receipt: the digest's share of a page in Benchmarks/History/30-pages-are-renders.md).
    static func hexadecimal(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            var index = 0
            while index + 8 <= raw.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
                hash ^= hash >> 29
                index += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < raw.count {
                tail |= UInt64(raw[index]) << shift
                shift += 8
                index += 1
            }
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
            hash ^= hash >> 31
            hash = hash &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 32
        }
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = digits[Int((hash >> UInt64(60 - 4 * index)) & 0xF)] }
            return 16
        }
    }
}
