internal import FoundationEssentials

/// The tus 1.0.0 headers' values, parsed strictly: anything malformed is `nil` (and the request gets 400).
package enum TusHeaders {
    /// The protocol version this server speaks (`Tus-Resumable`, `Tus-Version`).
    package static let version = "1.0.0"
    /// The extensions announced by `Tus-Extension`.
    package static let extensions = "creation,creation-with-upload,termination,expiration"
    /// The content type of every body that carries upload bytes.
    package static let offsetContentType = "application/offset+octet-stream"

    /// A non-negative decimal integer that fits in an `Int` (`Upload-Length`, `Upload-Offset`, `Content-Length`):
    /// digits only, no sign, no spaces, at most 18 digits.
    package static func parseCount(_ text: String) -> Int? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    /// `Upload-Metadata`: comma-separated pairs `key base64value` (the value may be absent, then empty). Keys are
    /// printable ASCII without spaces or commas and appear once; values are standard base64 of UTF-8 text. At most 64
    /// pairs.
    package static func parseMetadata(_ text: String) -> [String: String]? {
        var metadata: [String: String] = [:]
        if text.allSatisfy({ $0 == " " }) { return metadata }
        let pairs = text.split(separator: ",", omittingEmptySubsequences: false)
        guard pairs.count <= 64 else { return nil }
        for pair in pairs {
            let parts = pair.trimmingSpaces().split(
                separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 1 || parts.count == 2, let key = parts.first, !key.isEmpty,
                key.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ",") }),
                metadata[String(key)] == nil
            else { return nil }
            var value = ""
            if parts.count == 2 {
                guard let data = Data(base64Encoded: String(parts[1])), let text = String(data: data, encoding: .utf8)
                else { return nil }
                value = text
            }
            metadata[String(key)] = value
        }
        return metadata
    }

    /// Encodes `metadata` as `Upload-Metadata` (keys sorted), for the answer to `HEAD`.
    package static func formatMetadata(_ metadata: [String: String]) -> String {
        metadata.keys.sorted().map { key in
            let value = metadata[key] ?? ""
            return value.isEmpty ? key : "\(key) \(Data(value.utf8).base64EncodedString())"
        }.joined(separator: ",")
    }

    /// Whether a `Content-Type` value names `application/offset+octet-stream` (parameters ignored, any case).
    package static func isOffsetContentType(_ value: String?) -> Bool {
        guard let value else { return false }
        let type = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingOptionalWhitespace() }
        return type?.lowercased() == offsetContentType
    }
}

extension Substring {
    /// The substring without the spaces (not tabs) at its ends: what separates a tus metadata pair from the commas.
    fileprivate func trimmingSpaces() -> Substring {
        let start = drop { $0 == " " }
        guard let last = start.lastIndex(where: { $0 != " " }) else { return start[start.endIndex...] }
        return start[...last]
    }
}
