import Testing

@testable import ViewKit

/// The one-pass name check every view runs on its tag name, against a plain statement of the rules.
@Suite struct ElementNameTests {
    static let voidNames = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    @Test func voidElementsAreKnownAndNothingElseIs() {
        for name in Self.voidNames {
            #expect(View.isVoidElementName(name), "\(name)")
            #expect(View(tagName: name).isVoidElement, "\(name)")
        }
        #expect(View.isVoidElementName("#text"))
        for name in [
            "div", "span", "p", "a", "b", "i", "ul", "li", "col2", "areas", "imgs", "inpu", "br-x", "h1", "source1",
            "wbrr", "tracks", "hr.", "BR",
        ] {
            #expect(!View.isVoidElementName(name), "\(name)")
        }
    }

    @Test func everyASCIIByteIsAllowedOrRefusedAsTheRulesSay() {
        for byte in UInt8(0x20)..<0x80 {
            let character = Character(UnicodeScalar(byte))
            let allowed = character.isLetter || character.isNumber || "-_:.".contains(character)
            let inside = "a" + String(character) + "b"
            #expect(View.isValidName(inside) == allowed, "byte \(byte) inside a name")
            let leading = String(character) + "ab"
            #expect(
                View.isValidName(leading) == (allowed && byte != UInt8(ascii: "-") && byte != UInt8(ascii: ".")),
                "byte \(byte) first")
        }
        #expect(!View.isValidName(""))
        #expect(!View.isValidName("ü"))
        #expect(View.isValidName("my-element_2:x.y"))
    }
}
