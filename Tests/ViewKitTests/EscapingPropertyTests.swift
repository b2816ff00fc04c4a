import CGumbo
import Testing
import ViewKit

/// Renders thousands of hostile strings as text and attribute values, parses the output back with
/// a real HTML5 parser (gumbo), and checks that everything comes back exactly, with nothing injected.
@Suite struct EscapingPropertyTests {
    /// An element as the parser saw it.
    struct ParsedElement: Equatable {
        var name: String
        var attributes: [String: String]
        var text: String
        var children: [ParsedElement]
    }

    static let fragments: [String] = [
        "\"", "'", "<", ">", "&", "<script>alert(1)</script>", "</textarea>", "</title>", "</p>", "<!--", "-->",
        "&amp;", "&lt;", "&#0;", "&#x3C;", "&nbsp", "&notin;", "]]>", "<![CDATA[", "\" onload=\"x", "' x='",
        "=", "`", "\r\n", "\r", "\n", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{7F}",
        "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "\u{FEFF}", "\u{FFFD}", "\u{FFFE}", "\u{2028}", "é", "漢字", "🎬",
        "👩🏽‍💻", String(decoding: [0xD800, 0x41] as [UInt16], as: UTF16.self),
        String(decoding: [0xDC00] as [UInt16], as: UTF16.self), "a", " ", "  ", "x y", "<div>", "<img src=x>",
    ]

    static func hostileString(using generator: inout SeededGenerator) -> String {
        var result = ""
        let count = Int.random(in: 0...12, using: &generator)
        for _ in 0..<count {
            if Int.random(in: 0..<10, using: &generator) == 0 {
                // Arbitrary scalars, including controls and astral planes.
                let value = UInt32.random(in: 0...0x10FFFF, using: &generator)
                result.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            } else {
                result += fragments.randomElement(using: &generator)!
            }
        }
        if Int.random(in: 0..<50, using: &generator) == 0 {
            result += String(repeating: "<&\"'>", count: 4000)
        }
        return result
    }

    /// What a string becomes after rendering and parsing: NUL, DEL, C1 controls and noncharacters
    /// (which HTML documents must not contain) become U+FFFD; everything else comes back as it was.
    static func expectedRoundTrip(_ string: String) -> String {
        func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            return value == 0 || value == 0x7F || (0x80...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value)
                || value & 0xFFFE == 0xFFFE
        }
        return String(String.UnicodeScalarView(string.unicodeScalars.map { isForbidden($0) ? "\u{FFFD}" : $0 }))
    }

    @Test func hostileTextAndAttributeValuesRoundTripThroughAnHTML5Parser() throws {
        var generator = SeededGenerator(seed: 42)
        for iteration in 0..<3000 {
            let text = Self.hostileString(using: &generator)
            let value = Self.hostileString(using: &generator)
            let root = View(tagName: "div")
            let label = Label(text: text, tagName: iteration % 3 == 0 ? "textarea" : iteration % 3 == 1 ? "p" : "span")
            label.setAttribute("title", value)
            label.accessibilityLabel = value
            let image = ImageView()
            image.alternativeText = value
            image.imageURL = "/posters/" + value
            let button = Button(title: text, actionName: "tap")
            root.addSubview(label)
            root.addSubview(image)
            root.addSubview(button)
            let html = root.renderHTML(context: RenderContext(hiddenFormFields: [("csrf", value)]))

            let parsed = try #require(Self.parseFragment(html).first)
            let expectedText = Self.expectedRoundTrip(text)
            let expectedValue = Self.expectedRoundTrip(value)
            #expect(parsed.name == "div")
            #expect(parsed.children.map(\.name) == [label.tagName, "img", "form"], "iteration \(iteration)")
            guard parsed.children.count == 3 else { continue }
            let (parsedLabel, parsedImage, parsedForm) = (parsed.children[0], parsed.children[1], parsed.children[2])
            // A textarea drops one leading newline by HTML's rules; our output never starts with one
            // unless the text does, so compare after the same rule.
            var labelText = expectedText
            if label.tagName == "textarea" && labelText.hasPrefix("\n") { labelText.removeFirst() }
            #expect(parsedLabel.text == labelText, "iteration \(iteration)")
            #expect(parsedLabel.children.isEmpty)
            #expect(
                parsedLabel.attributes == ["id": label.domID, "title": expectedValue, "aria-label": expectedValue],
                "iteration \(iteration)")
            #expect(parsedImage.attributes["alt"] == expectedValue)
            #expect(parsedImage.attributes["src"] == "/posters/" + expectedValue)
            #expect(Set(parsedImage.attributes.keys) == ["id", "src", "alt", "loading", "decoding"])
            #expect(parsedForm.children.map(\.name) == ["input", "button"])
            #expect(parsedForm.children.first?.attributes["value"] == expectedValue)
            #expect(parsedForm.children.last?.text == expectedText)
        }
    }

    // MARK: gumbo

    static func parseFragment(_ html: [UInt8]) -> [ParsedElement] {
        var options = kGumboDefaultOptions
        options.fragment_context = GUMBO_TAG_BODY
        options.fragment_namespace = GUMBO_NAMESPACE_HTML
        return html.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters -> [ParsedElement] in
                guard let output = gumbo_parse_with_options(&options, characters.baseAddress, characters.count) else {
                    return []
                }
                defer { gumbo_destroy_output(&options, output) }
                return element(output.pointee.root)?.children ?? []
            }
        }
    }

    private static func element(_ node: UnsafeMutablePointer<GumboNode>) -> ParsedElement? {
        guard node.pointee.type == GUMBO_NODE_ELEMENT else { return nil }
        let element = node.pointee.v.element
        var result = ParsedElement(name: "", attributes: [:], text: "", children: [])
        var piece = element.original_tag
        if element.tag == GUMBO_TAG_UNKNOWN {
            gumbo_tag_from_original_text(&piece)
            result.name = String(
                decoding: UnsafeRawBufferPointer(start: piece.data, count: piece.length), as: UTF8.self)
        } else {
            result.name = String(cString: gumbo_normalized_tagname(element.tag))
        }
        for index in 0..<Int(element.attributes.length) {
            let attribute = element.attributes.data[index]!.assumingMemoryBound(to: GumboAttribute.self)
            result.attributes[String(cString: attribute.pointee.name)] = String(cString: attribute.pointee.value)
        }
        for index in 0..<Int(element.children.length) {
            let child = element.children.data[index]!.assumingMemoryBound(to: GumboNode.self)
            switch child.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
                result.text += String(cString: child.pointee.v.text.text)
            case GUMBO_NODE_ELEMENT:
                if let parsed = self.element(child) { result.children.append(parsed) }
            default:
                result.children.append(ParsedElement(name: "#other", attributes: [:], text: "", children: []))
            }
        }
        return result
    }
}
