import Foundation

/// Lays HTML out one element per line, indented by depth, for snapshots (never for pages: rendering
/// writes no whitespace). An element holding only text stays on one line: `<h1 id="v2">Heat</h1>`.
/// Attribute values are kept exactly as written; text is kept as is, trimmed of surrounding
/// whitespace.
public enum SnapshotHTMLPrettyPrinter {
    private enum Token {
        case startTag(name: String, markup: Substring)
        case endTag(name: String, markup: Substring)
        case other(Substring)  // doctype, comment
        case text(Substring)
    }

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    /// Returns `html` pretty-printed, ending with a line break.
    public static func prettyPrint(_ html: String) -> String {
        let tokens = tokenize(html)
        var lines: [String] = []
        var depth = 0
        var index = 0
        func emit(_ text: some StringProtocol) {
            lines.append(String(repeating: "  ", count: depth) + text)
        }
        while index < tokens.count {
            switch tokens[index] {
            case .startTag(let name, let markup):
                if voidElements.contains(name) {
                    emit(markup)
                } else if index + 2 < tokens.count, case .text(let text) = tokens[index + 1],
                    case .endTag(let endName, let endMarkup) = tokens[index + 2], endName == name
                {
                    emit(markup + text + endMarkup)
                    index += 2
                } else if index + 1 < tokens.count, case .endTag(let endName, let endMarkup) = tokens[index + 1],
                    endName == name
                {
                    emit(markup + endMarkup)
                    index += 1
                } else {
                    emit(markup)
                    depth += 1
                }
            case .endTag(_, let markup):
                depth = max(depth - 1, 0)
                emit(markup)
            case .other(let markup):
                emit(markup)
            case .text(let text):
                let trimmed = text.trimmingWhitespace()
                if !trimmed.isEmpty { emit(trimmed) }
            }
            index += 1
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func tokenize(_ html: String) -> [Token] {
        var tokens: [Token] = []
        var position = html.startIndex
        while position < html.endIndex {
            guard html[position] == "<", let tagEnd = endOfTag(in: html, from: position) else {
                let next = html[html.index(after: position)...].firstIndex(of: "<") ?? html.endIndex
                tokens.append(.text(html[position..<next]))
                position = next
                continue
            }
            let markup = html[position..<tagEnd]
            position = tagEnd
            if markup.hasPrefix("</") {
                tokens.append(.endTag(name: tagName(of: markup.dropFirst(2)), markup: markup))
            } else if markup.hasPrefix("<!") || markup.hasPrefix("<?") {
                tokens.append(.other(markup))
            } else {
                let name = tagName(of: markup.dropFirst())
                tokens.append(.startTag(name: name, markup: markup))
                if name == "script" || name == "style" || name == "textarea" || name == "title" {
                    // Raw text: everything up to the matching end tag is content, even "<".
                    let close = "</" + name
                    let rest = html[position...]
                    let contentEnd = rest.range(of: close, options: .caseInsensitive)?.lowerBound ?? html.endIndex
                    if contentEnd > position { tokens.append(.text(html[position..<contentEnd])) }
                    position = contentEnd
                }
            }
        }
        return tokens
    }

    /// The index after the `>` closing the tag at `start`, skipping quoted attribute values.
    private static func endOfTag(in html: String, from start: String.Index) -> String.Index? {
        if html[start...].hasPrefix("<!--") {
            guard let close = html[start...].range(of: "-->") else { return html.endIndex }
            return close.upperBound
        }
        var quote: Character?
        var index = html.index(after: start)
        guard index < html.endIndex, html[index].isLetter || html[index] == "/" || html[index] == "!" else {
            return nil
        }
        while index < html.endIndex {
            let character = html[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ">" {
                return html.index(after: index)
            }
            index = html.index(after: index)
        }
        return html.endIndex
    }

    private static func tagName(of markup: Substring) -> String {
        String(markup.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }).lowercased()
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
