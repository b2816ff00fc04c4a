public import ViewKit

/// How to turn a value into a text snapshot and compare two snapshots (swift-snapshot-testing's
/// `Snapshotting`).
///
/// ```swift
/// assertSnapshot(of: label, as: .html)
/// assertSnapshot(of: pageBytes, as: .html)
/// let titles = Snapshotting<[String]>.lines.pullback { $0.joined(separator: "\n") }
/// ```
public struct Snapshotting<Value> {
    /// The extension of reference files, without the dot.
    public var pathExtension: String
    /// Turns a value into the text stored in the reference file.
    public var snapshot: (Value) -> String
    /// Compares a reference with an actual snapshot: `nil` when they match, else a readable diff.
    public var difference: (_ reference: String, _ actual: String) -> String?

    /// Creates a strategy; the default comparison is a line diff.
    public init(
        pathExtension: String, snapshot: @escaping (Value) -> String,
        difference: @escaping (_ reference: String, _ actual: String) -> String? = SnapshotDiff.lineDiff
    ) {
        self.pathExtension = pathExtension
        self.snapshot = snapshot
        self.difference = difference
    }

    /// A strategy for `NewValue` that converts it to `Value` first.
    public func pullback<NewValue>(_ transform: @escaping (NewValue) -> Value) -> Snapshotting<NewValue> {
        let snapshot = self.snapshot
        return Snapshotting<NewValue>(
            pathExtension: pathExtension, snapshot: { snapshot(transform($0)) }, difference: difference)
    }
}

extension Snapshotting where Value == String {
    /// HTML text, pretty-printed one element per line so diffs are readable.
    public static var html: Snapshotting<String> {
        Snapshotting(pathExtension: "html", snapshot: SnapshotHTMLPrettyPrinter.prettyPrint)
    }

    /// Plain text, compared line by line.
    public static var lines: Snapshotting<String> {
        Snapshotting(pathExtension: "txt", snapshot: { $0 })
    }
}

extension Snapshotting where Value == [UInt8] {
    /// UTF-8 HTML bytes (a rendered page or patch), pretty-printed.
    public static var html: Snapshotting<[UInt8]> {
        Snapshotting<String>.html.pullback { String(decoding: $0, as: UTF8.self) }
    }
}

extension Snapshotting where Value: View {
    /// A view's subtree rendered as a screen's page renders it (``RenderContext/screen(actionPath:csrfToken:)``, with
    /// fragment links and an empty token), pretty-printed.
    public static var html: Snapshotting<Value> {
        html(context: .screen())
    }

    /// A view's subtree rendered with `context` (action paths, hidden form fields), pretty-printed.
    public static func html(context: RenderContext) -> Snapshotting<Value> {
        Snapshotting<[UInt8]>.html.pullback { $0.renderHTML(context: context) }
    }
}
