import Testing

import ViewKit

@Suite struct SameBytesTests {
    @Test func stringsAreTheSameWhenTheirUTF8BytesAre() {
        let long = String(repeating: "Heat · 1995 ", count: 20)
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)  // the same bytes in storage of its own
        #expect(long.hasSameUTF8(as: long))
        #expect(long.hasSameUTF8(as: copy))
        #expect("8.4".hasSameUTF8(as: String("8.4")))
        #expect("".hasSameUTF8(as: String()))
        #expect(!long.hasSameUTF8(as: long + " "))
        #expect(!long.hasSameUTF8(as: String(long.dropLast()) + "!"))
        #expect(!"8.4".hasSameUTF8(as: "8.5"))
        #expect(!"".hasSameUTF8(as: " "))
    }

    @Test func canonicallyEquivalentTextsWithOtherBytesAreNotTheSame() {
        // `==` finds these equal; a page shows the code points, so a view must re-render.
        let composed = "Amélie"
        let decomposed = "Ame\u{301}lie"
        #expect(composed == decomposed)
        #expect(!composed.hasSameUTF8(as: decomposed))
        #expect(![composed].hasSameUTF8(as: [decomposed]))
        #expect([composed, "x"].hasSameUTF8(as: [composed, "x"]))
        let none: String? = nil
        #expect(!Optional(composed).hasSameUTF8(as: none))
        #expect(none.hasSameUTF8(as: none))
    }

    @Test func thePublicSameTextIsCodePointForCodePoint() {
        // What an app asks when it decides whether a text changed: the same answer as the views' own comparison.
        let composed = "Amélie"
        let decomposed = "Ame\u{301}lie"
        let copy = String(decoding: Array(composed.utf8), as: UTF8.self)
        #expect(composed.isSameText(as: copy))
        #expect(!composed.isSameText(as: decomposed))
        #expect(!composed.isSameText(as: "Amelie"))
        #expect(["Heat", composed].isSameText(as: ["Heat", copy]))
        #expect(![composed].isSameText(as: [decomposed]))
        #expect(!["Heat"].isSameText(as: ["Heat", "Ronin"]))
    }
}
