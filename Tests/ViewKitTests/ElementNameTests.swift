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

    /// A button and an image are named by packed names written as literals: each the name the check works out from
    /// the string, with the same shared list, so they render and compare as a view made from the name does.
    @Test func theFixedNamesOfButtonsAndImagesAreTheCheckedOnes() {
        for (view, name) in [(Button() as View, "form"), (ImageView(), "img")] {
            let made = View(tagName: name)
            #expect(view.packedTag == made.packedTag && view.tagName == name, "\(name)")
            #expect(view.attributeList === made.attributeList, "\(name)")
            #expect(view.isVoidElement == made.isVoidElement, "\(name)")
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

    @Test func namesOfEveryLengthAreKeptAndRenderedAsGiven() {
        // Up to eight bytes a view keeps its name in one word; longer names are kept apart.
        for name in [
            "a", "br", "div", "span", "input", "source", "section", "articles", "blockquote", "my-custom-card",
        ] {
            let view = View(tagName: name)
            #expect(view.tagName == name)
            #expect(view.isVoidElement == Self.voidNames.contains(name), "\(name)")
            let html = String(decoding: view.renderHTML(context: RenderContext()), as: UTF8.self)
            #expect(html == (view.isVoidElement ? "<\(name) id=\"v1\">" : "<\(name) id=\"v1\"></\(name)>"))
        }
        let text = TextNode(text: "words")
        #expect(text.tagName == "#text" && text.isVoidElement)
        #expect(View(tagName: "html").renderHTML(context: RenderContext()).starts(with: Array("<!DOCTYPE html>".utf8)))
        #expect(View(tagName: "htm").renderHTML(context: RenderContext()).first == UInt8(ascii: "<"))
    }

    /// glibc's size of the allocation behind `pointer` (`<malloc.h>`, which Glibc does not export).
    @_silgen_name("malloc_usable_size")
    private static func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int

    @Test func aViewTakesASixtyFourByteAllocationAndALabelEighty() {
        // A screen keeps some fifty views for its whole life: their size is most of a session's memory. The name and
        // the class list live in the attribute list, not in the view (Benchmarks/History/51-screen-memory-6.md).
        #expect(Self.smallestAllocation { View(tagName: "section") } <= 56)
        // A label and a text node add their string and nothing else: a 72-byte object, an 80-byte allocation.
        #expect(Self.smallestAllocation { Label(text: "words") } <= 72)
        #expect(Self.smallestAllocation { TextNode(text: "words") } <= 72)
    }

    /// The usable size of the allocations behind many objects made by `make`, all alive at once, at its smallest.
    /// glibc sometimes hands out a larger chunk than the request needs (the rest of a free chunk too small to split
    /// off, with other tests allocating meanwhile): one object's size said 88 for a 72-byte view now and then. The
    /// smallest of many is the size class the object's own size asks for.
    private static func smallestAllocation(_ make: () -> AnyObject) -> Int {
        let objects = (0..<256).map { _ in make() }
        return objects.map { mallocUsableSize(Unmanaged.passUnretained($0).toOpaque()) }.min() ?? 0
    }
}
