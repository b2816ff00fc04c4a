import Testing

@testable import HTTPServer

/// The streaming `multipart/form-data` parser: parts and their bytes whatever the pieces the body arrives in, each
/// limit, and malformed bodies refused.
@Suite struct MultipartParserTests {
    /// What a parse told, as text: `start name filename`, the bytes of each part, `end`.
    private static func parse(
        _ body: [UInt8], boundary: String = "XyZ", pieces: Int = 1,
        limits: MultipartLimits = MultipartLimits(maxFileSize: 1 << 20)
    ) throws -> [(MultipartPart, [UInt8])] {
        let parser = MultipartParser(boundary: boundary, limits: limits)
        var parts: [(MultipartPart, [UInt8])] = []
        var ended = 0
        let size = max(1, (body.count + pieces - 1) / pieces)
        var offset = 0
        while offset < body.count {
            let piece = Array(body[offset..<min(body.count, offset + size)])
            try piece.withUnsafeBytes { bytes in
                try parser.feed(bytes) { event in
                    switch event {
                    case .partStarted(let part): parts.append((part, []))
                    case .data(let data): parts[parts.count - 1].1 += data
                    case .partEnded: ended += 1
                    }
                }
            }
            offset += size
        }
        try parser.finish()
        #expect(ended == parts.count)
        return parts
    }

    static let file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 13, 10, 45, 45, 88] + (0..<5000).map { UInt8($0 % 256) }

    static func body(file: [UInt8] = file, boundary: String = "XyZ") -> [UInt8] {
        Array("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ntok\r\n".utf8)
            + Array(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"poster\"; filename=\"a \\\"b\\\".png\"\r\n"
                    + "Content-Type: image/png\r\n\r\n").utf8) + file
            + Array(
                "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\r\n--\(boundary)--\r\nepilogue"
                    .utf8)
    }

    @Test(arguments: [1, 2, 3, 7, 100, 5100]) func partsArriveWholeWhateverThePieces(pieces: Int) throws {
        let parts = try Self.parse(Self.body(), pieces: pieces)
        #expect(parts.map(\.0.name) == ["csrf", "poster", "title"])
        #expect(parts[0].1 == Array("tok".utf8))
        #expect(parts[1].0.filename == "a \"b\".png")
        #expect(parts[1].0.contentType == "image/png")
        #expect(parts[1].1 == Self.file)
        #expect(parts[0].0.filename == nil)
        #expect(parts[2].1.isEmpty)
    }

    @Test func theBoundaryComesFromTheContentType() {
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data; boundary=----WebKit12") == "----WebKit12")
        #expect(MultipartParser.boundary(ofContentType: "Multipart/Form-Data; charset=x; boundary=\"a b\"") == "a b")
        #expect(MultipartParser.boundary(ofContentType: "multipart/mixed; boundary=x") == nil)
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data") == nil)
        #expect(
            MultipartParser.boundary(
                ofContentType: "multipart/form-data; boundary=" + String(repeating: "a", count: 71)) == nil)
        #expect(MultipartParser.boundary(ofContentType: nil) == nil)
    }

    @Test func eachLimitRefusesTheBody() {
        #expect(throws: MultipartError.tooLarge("a part is longer than 100 bytes")) {
            try Self.parse(Self.body(), pieces: 3, limits: MultipartLimits(maxFileSize: 100))
        }
        #expect(throws: MultipartError.tooLarge("a part is longer than 2 bytes")) {
            try Self.parse(Self.body(), limits: MultipartLimits(maxFileSize: 1 << 20, maxFieldSize: 2))
        }
        #expect(throws: MultipartError.tooLarge("the body has more than 2 parts")) {
            try Self.parse(Self.body(), limits: MultipartLimits(maxFileSize: 1 << 20, maxParts: 2))
        }
        let longHeader = Array(
            ("--XyZ\r\nContent-Disposition: form-data; name=\"" + String(repeating: "n", count: 5000) + "\"\r\n\r\nx")
                .utf8)
        #expect(throws: MultipartError.tooLarge("a part's headers are longer than 4096 bytes")) {
            try Self.parse(longHeader, pieces: 50)
        }
    }

    @Test(arguments: [
        "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end",
        "--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; filename=\"a\"\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nno colon\r\n\r\nx\r\n--XyZ--",
        "--XyZ!!\r\n",
        "",
    ]) func malformedBodiesAreRefused(body: String) {
        #expect(throws: MultipartError.self) { try Self.parse(Array(body.utf8)) }
    }

    @Test func aDelimiterSplitAcrossPiecesIsNotPartOfThePart() throws {
        // The part ends with bytes that start like the delimiter.
        let file: [UInt8] = Array("x\r\n--Xy\r\n-".utf8)
        for pieces in 1...40 {
            let parts = try Self.parse(Self.body(file: file), pieces: pieces)
            #expect(parts[1].1 == file, "\(pieces) pieces")
        }
    }
}
