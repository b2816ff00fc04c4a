/// One part's headers in a `multipart/form-data` body: the form field's name and, for a file, its name and type.
package struct MultipartPart: Sendable, Equatable {
    /// The `name` of its `Content-Disposition: form-data`.
    package var name: String
    /// The `filename`, for a file input's part (empty when no file was chosen); `nil` for other fields.
    package var filename: String?
    /// Its `Content-Type`, if it says one.
    package var contentType: String?
}

/// What a ``MultipartParser`` refuses to take further; the body is refused whole.
package struct MultipartLimits: Sendable, Equatable {
    /// The longest file part, in bytes.
    package var maxFileSize: Int
    /// The longest part that is not a file (a text field's value), in bytes.
    package var maxFieldSize: Int
    /// The longest header block of one part, in bytes.
    package var maxHeaderSize: Int
    /// The most parts a body may have.
    package var maxParts: Int

    package init(maxFileSize: Int, maxFieldSize: Int = 16 * 1024, maxHeaderSize: Int = 4 * 1024, maxParts: Int = 64) {
        self.maxFileSize = maxFileSize
        self.maxFieldSize = maxFieldSize
        self.maxHeaderSize = maxHeaderSize
        self.maxParts = maxParts
    }
}

/// Why a `multipart/form-data` body was refused.
package enum MultipartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body does not follow the format: what was wrong.
    case malformed(String)
    /// A part, a header block or the number of parts went past its limit: which.
    case tooLarge(String)

    package var description: String {
        switch self {
        case .malformed(let message), .tooLarge(let message): message
        }
    }
}

/// A streaming `multipart/form-data` parser (RFC 7578): fed the body piece by piece as it arrives, it tells each part's
/// start (its headers), its bytes as they come and its end, holding at most a header block and a delimiter's length of
/// the body, never a part or the body whole.
///
/// Contract: ``feed(_:_:)`` with each piece, in order, then ``finish()`` once the body ended; any ``MultipartError``
/// means the body is refused (and the parser takes nothing more). The handler's bytes are valid for its call only.
/// Limits (``MultipartLimits``) are checked as the bytes arrive, before the handler sees a byte past them.
///
/// ```swift
/// let parser = MultipartParser(boundary: "XyZ", limits: MultipartLimits(maxFileSize: 1 << 20))
/// try parser.feed(piece) { event in … }
/// try parser.finish()
/// ```
package final class MultipartParser {
    /// What the parser tells its handler.
    package enum Event {
        /// A part begins, with its headers.
        case partStarted(MultipartPart)
        /// The next bytes of the current part.
        case data(UnsafeRawBufferPointer)
        /// The current part ended (all its bytes were told).
        case partEnded
    }

    private enum State {
        /// Before the first delimiter (a preamble is skipped).
        case preamble
        /// Right after a delimiter: `\r\n` (a part follows) or `--` (the end).
        case afterDelimiter
        /// Reading a part's header block, up to the blank line.
        case headers
        /// Reading a part's bytes, up to the next delimiter.
        case body
        /// After the closing delimiter: the rest (an epilogue) is ignored.
        case done
        /// Refused: nothing more is taken.
        case failed
    }

    private let delimiter: [UInt8]
    private let limits: MultipartLimits
    private var state = State.preamble
    /// Bytes received and not yet told: at most a header block, or a delimiter's length.
    private var buffer: [UInt8] = []
    private var parts = 0
    private var partSize = 0
    private var partLimit = 0

    /// A parser for a body whose parts are separated by `boundary` (the `Content-Type`'s parameter).
    package init(boundary: String, limits: MultipartLimits) {
        // The body is read as if preceded by CRLF, so that the first delimiter is found as every other one.
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.limits = limits
        buffer = [13, 10]
    }

    /// The `boundary` of a `multipart/form-data` `Content-Type`, or `nil` when it is another type or has no valid
    /// boundary (1 to 70 characters, RFC 2046).
    package static func boundary(ofContentType value: String?) -> String? {
        guard let value else { return nil }
        let pieces = value.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "="),
                piece[..<equals].trimmingCharacters(in: " \t").lowercased() == "boundary"
            else { continue }
            var boundary = piece[piece.index(after: equals)...].trimmingCharacters(in: " \t")
            if boundary.count >= 2 && boundary.hasPrefix("\"") && boundary.hasSuffix("\"") {
                boundary = String(boundary.dropFirst().dropLast())
            }
            guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
            else { return nil }
            return boundary
        }
        return nil
    }

    /// Takes the next piece of the body, telling `handler` what it completes.
    package func feed(_ bytes: UnsafeRawBufferPointer, _ handler: (Event) throws -> Void) throws {
        guard state != .failed else { throw MultipartError.malformed("the body was already refused") }
        if state == .done { return }
        buffer.append(contentsOf: bytes)
        do {
            try run(handler)
        } catch {
            state = .failed
            buffer = []
            throw error
        }
    }

    /// The body ended: throws unless the closing delimiter was seen.
    package func finish() throws {
        guard state == .done else {
            state = .failed
            throw MultipartError.malformed("the body ended before its closing boundary")
        }
    }

    private func run(_ handler: (Event) throws -> Void) throws {
        var start = 0
        defer { buffer.removeSubrange(0..<min(start, buffer.count)) }
        while start < buffer.count {
            switch state {
            case .preamble:
                guard let found = find(delimiter, from: start) else {
                    // Keep what could be the start of the delimiter.
                    start = max(start, buffer.count - (delimiter.count - 1))
                    return
                }
                start = found + delimiter.count
                state = .afterDelimiter
            case .afterDelimiter:
                guard buffer.count - start >= 2 else { return }
                let pair = (buffer[start], buffer[start + 1])
                start += 2
                if pair == (45, 45) {
                    state = .done
                    start = buffer.count
                } else if pair == (13, 10) {
                    state = .headers
                } else {
                    throw MultipartError.malformed("a boundary is not followed by CRLF or --")
                }
            case .headers:
                guard let end = find([13, 10, 13, 10], from: start) else {
                    // Past the limit even if the blank line's first three bytes are the buffer's last (so a body
                    // is refused the same wherever it is cut).
                    if buffer.count - start - 3 > limits.maxHeaderSize {
                        throw MultipartError.tooLarge("a part's headers are longer than \(limits.maxHeaderSize) bytes")
                    }
                    // A part with no header lines at all starts right with the blank line.
                    if buffer.count - start >= 2 && buffer[start] == 13 && buffer[start + 1] == 10 {
                        throw MultipartError.malformed("a part has no Content-Disposition")
                    }
                    return
                }
                guard end - start <= limits.maxHeaderSize else {
                    throw MultipartError.tooLarge("a part's headers are longer than \(limits.maxHeaderSize) bytes")
                }
                let part = try Self.part(from: buffer[start..<end])
                parts += 1
                guard parts <= limits.maxParts else {
                    throw MultipartError.tooLarge("the body has more than \(limits.maxParts) parts")
                }
                partSize = 0
                partLimit = part.filename == nil ? limits.maxFieldSize : limits.maxFileSize
                start = end + 4
                state = .body
                try handler(.partStarted(part))
            case .body:
                if let found = find(delimiter, from: start) {
                    try emit(start..<found, handler)
                    try handler(.partEnded)
                    start = found + delimiter.count
                    state = .afterDelimiter
                } else {
                    // Everything but what could be the start of the delimiter is the part's.
                    let keep = min(buffer.count - start, delimiter.count - 1)
                    let end = buffer.count - keep
                    try emit(start..<end, handler)
                    start = end
                    return
                }
            case .done:
                start = buffer.count
            case .failed:
                return
            }
        }
    }

    private func emit(_ range: Range<Int>, _ handler: (Event) throws -> Void) throws {
        guard !range.isEmpty else { return }
        partSize += range.count
        guard partSize <= partLimit else {
            throw MultipartError.tooLarge("a part is longer than \(partLimit) bytes")
        }
        try buffer.withUnsafeBytes { all in
            try handler(.data(UnsafeRawBufferPointer(rebasing: all[range])))
        }
    }

    /// Where `needle` first occurs in the buffer at or after `start`.
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        let count = buffer.count, length = needle.count
        guard count - start >= length, let first = needle.first else { return nil }
        var index = start
        while index <= count - length {
            if buffer[index] == first {
                var matched = 1
                while matched < length && buffer[index + matched] == needle[matched] { matched += 1 }
                if matched == length { return index }
            }
            index += 1
        }
        return nil
    }

    /// A part's headers: `Content-Disposition: form-data; name="…"` (and `filename="…"`), `Content-Type`.
    static func part(from block: ArraySlice<UInt8>) throws -> MultipartPart {
        guard let text = String(validating: block, as: UTF8.self) else {
            throw MultipartError.malformed("a part's headers are not UTF-8")
        }
        var part: MultipartPart?
        var contentType: String?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else {
                throw MultipartError.malformed("a part's header line has no colon")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            if name == "content-disposition" {
                guard part == nil else { throw MultipartError.malformed("a part has two Content-Disposition headers") }
                part = try disposition(value)
            } else if name == "content-type" {
                contentType = value
            }
        }
        guard var found = part else { throw MultipartError.malformed("a part has no Content-Disposition") }
        found.contentType = contentType
        return found
    }

    /// `form-data; name="title"; filename="a.png"`: quoted values (with `\"` and `\\` escapes) or tokens.
    private static func disposition(_ value: String) throws -> MultipartPart {
        var scalars = Substring(value)
        func skipSpace() { while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() } }
        let type = scalars.prefix { $0 != ";" }
        guard type.trimmingCharacters(in: " \t").lowercased() == "form-data" else {
            throw MultipartError.malformed("a part's Content-Disposition is not form-data")
        }
        scalars = scalars.dropFirst(type.count)
        var parameters: [String: String] = [:]
        while !scalars.isEmpty {
            guard scalars.first == ";" else { throw MultipartError.malformed("a Content-Disposition is malformed") }
            scalars.removeFirst()
            skipSpace()
            let key = scalars.prefix { $0 != "=" && $0 != ";" }.trimmingCharacters(in: " \t").lowercased()
            scalars = scalars.dropFirst(scalars.prefix { $0 != "=" && $0 != ";" }.count)
            guard scalars.first == "=" else { throw MultipartError.malformed("a Content-Disposition is malformed") }
            scalars.removeFirst()
            skipSpace()
            var parsed = ""
            if scalars.first == "\"" {
                scalars.removeFirst()
                var closed = false
                while let character = scalars.first {
                    scalars.removeFirst()
                    if character == "\"" {
                        closed = true
                        break
                    }
                    if character == "\\", let next = scalars.first {
                        scalars.removeFirst()
                        parsed.append(next)
                    } else {
                        parsed.append(character)
                    }
                }
                guard closed else { throw MultipartError.malformed("a Content-Disposition value is not closed") }
            } else {
                parsed = scalars.prefix { $0 != ";" }.trimmingCharacters(in: " \t")
                scalars = scalars.dropFirst(scalars.prefix { $0 != ";" }.count)
            }
            skipSpace()
            guard parameters[key] == nil else {
                throw MultipartError.malformed("a Content-Disposition names \(key.prefix(20)) twice")
            }
            parameters[key] = parsed
        }
        guard let name = parameters["name"] else { throw MultipartError.malformed("a part has no name") }
        return MultipartPart(name: name, filename: parameters["filename"], contentType: nil)
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
