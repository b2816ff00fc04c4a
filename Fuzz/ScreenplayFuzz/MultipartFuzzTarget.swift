internal import HTTPServer

/// The streaming multipart parser against hostile bodies: the input's first byte picks how the body is cut into
/// pieces, the rest is the body (boundary `XyZ`). The parser never traps; a body it accepts is told as whole parts,
/// within the limits, whatever the pieces; refused, it takes nothing more.
extension FuzzTargets {
    static func multipart(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        let limits = MultipartLimits(maxFileSize: 512, maxFieldSize: 64, maxHeaderSize: 128, maxParts: 8)
        let whole = parse(body, pieceSize: body.count + 1, limits: limits)
        let cut = parse(body, pieceSize: Int(first % 17) + 1, limits: limits)
        // Cut anywhere, the same body says the same parts (or is refused the same way).
        precondition(whole.accepted == cut.accepted && whole.parts.count == cut.parts.count)
        for (one, other) in zip(whole.parts, cut.parts) { precondition(one.0 == other.0 && one.1 == other.1) }
        for (part, data) in whole.parts {
            precondition(data.count <= (part.filename == nil ? limits.maxFieldSize : limits.maxFileSize))
        }
        precondition(whole.parts.count <= limits.maxParts)
    }

    private static func parse(_ body: [UInt8], pieceSize: Int, limits: MultipartLimits)
        -> (parts: [(MultipartPart, [UInt8])], accepted: Bool)
    {
        let parser = MultipartParser(boundary: "XyZ", limits: limits)
        var parts: [(MultipartPart, [UInt8])] = []
        var open = false
        var offset = 0
        do {
            while offset < body.count {
                let piece = Array(body[offset..<min(body.count, offset + pieceSize)])
                try piece.withUnsafeBytes { raw in
                    try parser.feed(raw) { event in
                        switch event {
                        case .partStarted(let part):
                            precondition(!open)
                            open = true
                            parts.append((part, []))
                        case .data(let data):
                            precondition(open)
                            parts[parts.count - 1].1 += data
                        case .partEnded:
                            precondition(open)
                            open = false
                        }
                    }
                }
                offset += pieceSize
            }
            try parser.finish()
            precondition(!open)
            return (parts, true)
        } catch {
            // Refused: what it told before stays told (a receiver drops it); the parser takes nothing more.
            let more: [UInt8] = [1]
            let refusedAgain = (try? more.withUnsafeBytes { raw in try parser.feed(raw) { _ in } }) == nil
            precondition(refusedAgain)
            return ([], false)
        }
    }
}
