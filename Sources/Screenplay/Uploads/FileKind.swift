/// What a file is, told from its first bytes, never from its name or the type a client declares.
///
/// ```swift
/// FileKind.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])   // .png
/// ```
public enum FileKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PNG: `89 50 4E 47 0D 0A 1A 0A`.
    case png
    /// JPEG: `FF D8 FF`.
    case jpeg
    /// WebP: `RIFF`, a length, then `WEBP`.
    case webp

    /// How many first bytes ``sniff(_:)`` needs.
    public static let signatureLength = 12

    /// The kind whose signature `bytes` starts with, or `nil` (fewer than ``signatureLength`` bytes, or none).
    public static func sniff(_ bytes: some Collection<UInt8>) -> FileKind? {
        let head = Array(bytes.prefix(signatureLength))
        guard head.count == signatureLength else { return nil }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// The name people know it by: `PNG`, `JPEG`, `WebP`.
    public var description: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        }
    }

    /// `kinds` for a message: "a PNG, JPEG or WebP file".
    static func phrase(_ kinds: Set<FileKind>) -> String {
        let names = FileKind.allCases.filter(kinds.contains).map(\.description)
        guard let last = names.last else { return "a file" }
        return names.count == 1 ? "a \(last) file" : "a \(names.dropLast().joined(separator: ", ")) or \(last) file"
    }
}
