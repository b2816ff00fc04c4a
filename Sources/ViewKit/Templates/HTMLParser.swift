internal import CGumbo

/// A parsed HTML node, copied out of gumbo's tree so nothing outlives `gumbo_destroy_output`.
struct ParsedNode {
    enum Kind {
        case element(tagName: String, attributes: [(name: String, value: String)])
        case text(String)
    }

    var kind: Kind
    var children: [ParsedNode]
    var line: Int

    var tagName: String? {
        if case .element(let tagName, _) = kind { return tagName }
        return nil
    }

    func attribute(_ name: String) -> String? {
        guard case .element(_, let attributes) = kind else { return nil }
        return attributes.first { $0.name == name }?.value
    }

    /// The concatenated text of the node and its descendants.
    var textContent: String {
        switch kind {
        case .text(let text): return text
        case .element: return children.map(\.textContent).joined()
        }
    }
}

/// The only door to gumbo: parses HTML5 the way browsers do.
enum HTMLParser {
    /// Parses `source` as a body fragment and returns its top-level nodes.
    static func parseFragment(_ source: String) -> [ParsedNode] {
        parse(source, fragment: true)?.children ?? []
    }

    /// Parses `source` as a whole document and returns its `html` element.
    static func parseDocument(_ source: String) -> ParsedNode? {
        parse(source, fragment: false)
    }

    private static func parse(_ source: String, fragment: Bool) -> ParsedNode? {
        var options = kGumboDefaultOptions
        if fragment {
            options.fragment_context = GUMBO_TAG_BODY
            options.fragment_namespace = GUMBO_NAMESPACE_HTML
        }
        var source = source
        return source.withUTF8 { buffer -> ParsedNode? in
            guard let base = buffer.baseAddress,
                let output = base.withMemoryRebound(
                    to: CChar.self, capacity: buffer.count,
                    { gumbo_parse_with_options(&options, $0, buffer.count) })
            else { return nil }
            defer { gumbo_destroy_output(&options, output) }
            guard let root = output.pointee.root else { return nil }
            return convert(root)
        }
    }

    private static func convert(_ node: UnsafeMutablePointer<GumboNode>) -> ParsedNode? {
        switch node.pointee.type {
        case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
            var element = node.pointee.v.element
            var attributes: [(name: String, value: String)] = []
            forEach(element.attributes) { (attribute: UnsafeMutablePointer<GumboAttribute>) in
                attributes.append((String(cString: attribute.pointee.name), String(cString: attribute.pointee.value)))
            }
            var children: [ParsedNode] = []
            forEach(element.children) { (child: UnsafeMutablePointer<GumboNode>) in
                if let converted = convert(child) { children.append(converted) }
            }
            return ParsedNode(
                kind: .element(tagName: tagName(&element), attributes: attributes), children: children,
                line: Int(element.start_pos.line))
        case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
            let text = node.pointee.v.text
            return ParsedNode(
                kind: .text(String(cString: text.text)), children: [], line: Int(text.start_pos.line))
        default:
            return nil  // comments and the document node carry nothing a view needs
        }
    }

    private static func tagName(_ element: inout GumboElement) -> String {
        if element.tag != GUMBO_TAG_UNKNOWN && element.tag_namespace == GUMBO_NAMESPACE_HTML {
            return String(cString: gumbo_normalized_tagname(element.tag))
        }
        var piece = element.original_tag
        gumbo_tag_from_original_text(&piece)
        if element.tag_namespace == GUMBO_NAMESPACE_SVG, let adjusted = gumbo_normalize_svg_tagname(&piece) {
            return String(cString: adjusted)
        }
        if element.tag != GUMBO_TAG_UNKNOWN { return String(cString: gumbo_normalized_tagname(element.tag)) }
        guard let data = piece.data, piece.length > 0 else { return "div" }
        let bytes = UnsafeRawBufferPointer(start: data, count: piece.length)
        return String(decoding: bytes, as: UTF8.self).lowercased()
    }

    private static func forEach<T>(_ vector: GumboVector, _ body: (UnsafeMutablePointer<T>) -> Void) {
        guard let data = vector.data else { return }
        for index in 0..<Int(vector.length) {
            if let item = data[index] { body(item.assumingMemoryBound(to: T.self)) }
        }
    }
}
