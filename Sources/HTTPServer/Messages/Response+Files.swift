import Glibc

extension Response {
    /// The regular file at `path` as `request` asks for it: whole (200), a byte range of it (206 for a `Range` of one
    /// range; 416 with `Content-Range: bytes */size` for one that starts past the end), or nothing new (304 when
    /// `If-None-Match` names its `ETag`). Every answer carries the `ETag` and `Accept-Ranges: bytes`; with
    /// `downloadName`, `Content-Disposition: attachment` names the file to save (RFC 6266, with a UTF-8 `filename*`
    /// for names beyond ASCII). A `Range` of several ranges, or one that does not parse, is ignored (200, the whole
    /// file), as RFC 9110 allows; `If-Range` is not supported and makes the request whole. A path that is not a
    /// regular file is 404.
    ///
    /// ```swift
    /// router.get("/exports/catalog.csv") { request in
    ///     .file(at: exportPath, for: request, contentType: "text/csv; charset=utf-8", downloadName: "catalog.csv")
    /// }
    /// ```
    public static func file(at path: String, for request: Request, contentType: String, downloadName: String? = nil)
        -> Response
    {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .error(.notFound, message: "Nothing here.")
        }
        let size = Int(info.st_size)
        let tag =
            "\"\(String(size, radix: 16))-\(String(info.st_mtim.tv_sec, radix: 16))-"
            + "\(String(info.st_mtim.tv_nsec, radix: 16))\""
        var headers: HTTPHeaders = ["ETag": tag, "Accept-Ranges": "bytes", "Content-Type": contentType]
        if let downloadName { headers["Content-Disposition"] = contentDisposition(for: downloadName) }
        if let ifNoneMatch = request.headers["If-None-Match"], StaticFiles.matches(ifNoneMatch, tag) {
            headers.remove("Content-Type")
            return Response(status: .notModified, headers: headers)
        }
        guard request.headers["If-Range"] == nil, let rangeHeader = request.headers["Range"],
            let range = ByteRange(rangeHeader)
        else {
            return Response(status: .ok, headers: headers, body: .file(path: path))
        }
        guard let bytes = range.bytes(in: size) else {
            headers["Content-Range"] = "bytes */\(size)"
            headers.remove("Content-Type")
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers["Content-Range"] = "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(size)"
        return Response(
            status: .partialContent, headers: headers,
            body: .fileRange(FileRange(path: path, offset: bytes.lowerBound, length: bytes.count)))
    }

    /// `attachment; filename="…"` with the name's ASCII letters, digits and `-._ ` (others as `_`), and
    /// `filename*=UTF-8''…` percent-encoded when the name has anything else.
    public static func contentDisposition(for name: String) -> String {
        let safe: (UInt8) -> Bool = { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("-._".utf8).contains(byte)
        }
        let plain = String(
            decoding: name.utf8.map { safe($0) || $0 == UInt8(ascii: " ") ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        var value = "attachment; filename=\"\(plain)\""
        if plain != name {
            let encoded = name.utf8.map { safe($0) ? String(UnicodeScalar($0)) : "%" + hex($0) }.joined()
            value += "; filename*=UTF-8''" + encoded
        }
        return value
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

/// One range of a `Range: bytes=…` header: `first-last`, `first-` or `-suffix`.
struct ByteRange: Equatable {
    let first: Int?
    let last: Int?

    /// The header's range, or `nil` for another unit, several ranges or anything that does not parse.
    init?(_ header: String) {
        let trimmed = header[...].trimmingOptionalWhitespace()
        guard trimmed.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = trimmed.dropFirst(6).trimmingOptionalWhitespace()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let (start, end) = (spec[..<dash], spec[spec.index(after: dash)...])
        func number(_ text: Substring) -> Int?? {
            if text.isEmpty { return .some(nil) }
            guard text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text) else {
                return nil
            }
            return .some(value)
        }
        guard let first = number(start), let last = number(end), first != nil || last != nil else { return nil }
        if let first, let last, last < first { return nil }
        self.first = first
        self.last = last
    }

    /// The bytes of a file of `size` this range asks for, or `nil` when none of it is there (416).
    func bytes(in size: Int) -> Range<Int>? {
        if let first {
            guard first < size else { return nil }
            return first..<min(size, (last ?? size - 1) + 1)
        }
        guard let suffix = last, suffix > 0, size > 0 else { return nil }
        return max(0, size - suffix)..<size
    }
}
