internal import ViewKit

/// The difference between two renders of one screen's page, as the `replace` changes a `patch` carries: for a page
/// rendered before its data changed, whose stream then attached to a screen that renders it otherwise.
///
/// Both renders are this framework's own serialization of the same template (quoted attributes, escaped text), so
/// their elements with an `id` form the same tree wherever the data did not change what is there. Walking both trees
/// together, an element whose bytes are equal is left alone; one that differs only inside elements with ids is
/// walked into; any other difference replaces the element, with its new bytes. A difference outside every element
/// with an id (the document's shell) cannot be a patch: then there is no answer, and the page is reset.
enum RenderDifference {
    /// The changes that turn `old` into `new`, or `nil` when the shell differs (the `data-render` digest aside,
    /// which differs by definition); empty when nothing else does.
    static func changes(from old: [UInt8], to new: [UInt8]) -> [ViewChange]? {
        let before = Outline(old), after = Outline(new)
        guard let before, let after else { return nil }
        var changes: [ViewChange] = []
        guard
            difference(
                before, before.roots, range: 0..<old.count, after, after.roots, range: 0..<new.count,
                into: &changes)
        else { return nil }
        return changes
    }

    /// Compares the bytes of `range` in both renders, elements with ids (`children`) aside: `false` when they differ
    /// there; otherwise the children are compared in turn, each equal, walked into or replaced.
    private static func difference(
        _ old: Outline, _ oldChildren: [Int], range oldRange: Range<Int>, _ new: Outline, _ newChildren: [Int],
        range newRange: Range<Int>, into changes: inout [ViewChange]
    ) -> Bool {
        guard oldChildren.count == newChildren.count else { return false }
        var oldStart = oldRange.lowerBound, newStart = newRange.lowerBound
        for (o, n) in zip(oldChildren, newChildren) {
            let oldElement = old.elements[o], newElement = new.elements[n]
            guard oldElement.id == newElement.id,
                same(old, oldStart..<oldElement.range.lowerBound, new, newStart..<newElement.range.lowerBound)
            else { return false }
            oldStart = oldElement.range.upperBound
            newStart = newElement.range.upperBound
        }
        guard same(old, oldStart..<oldRange.upperBound, new, newStart..<newRange.upperBound) else {
            return false
        }
        for (o, n) in zip(oldChildren, newChildren) {
            let oldElement = old.elements[o], newElement = new.elements[n]
            if old.bytes[oldElement.range].elementsEqual(new.bytes[newElement.range]) { continue }
            var inner: [ViewChange] = []
            if difference(
                old, oldElement.children, range: oldElement.range, new, newElement.children, range: newElement.range,
                into: &inner)
            {
                changes += inner
            } else {
                changes.append(.replace(id: newElement.id, html: Array(new.bytes[newElement.range])))
            }
        }
        return true
    }

    /// Whether the two ranges hold the same bytes, the render digest's digits aside.
    private static func same(_ old: Outline, _ a: Range<Int>, _ new: Outline, _ b: Range<Int>) -> Bool {
        guard let oldDigest = old.digest, let newDigest = new.digest, a.contains(oldDigest.lowerBound),
            b.contains(newDigest.lowerBound)
        else { return old.bytes[a].elementsEqual(new.bytes[b]) }
        return old.bytes[a.lowerBound..<oldDigest.lowerBound].elementsEqual(
            new.bytes[b.lowerBound..<newDigest.lowerBound])
            && old.bytes[oldDigest.upperBound..<a.upperBound].elementsEqual(
                new.bytes[newDigest.upperBound..<b.upperBound])
    }
}

/// The elements with an `id` of a page this framework rendered, as a tree of byte ranges.
private struct Outline {
    struct Element {
        let id: String
        /// From its `<` to the end of its end tag (of its start tag for a void element).
        var range: Range<Int>
        /// Its nearest descendants with an id, in order (indexes into ``Outline/elements``).
        var children: [Int] = []
    }

    let bytes: [UInt8]
    var elements: [Element] = []
    /// The elements with an id that no element with an id holds.
    var roots: [Int] = []
    /// The digits of the `data-render` digest, when the page has one.
    var digest: Range<Int>?

    private static let voidElements: Set<[UInt8]> = Set(
        ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"].map {
            Array($0.utf8)
        })
    private static let rawTextElements: Set<[UInt8]> = [Array("script".utf8), Array("style".utf8)]

    /// Outlines `bytes`, or `nil` when they are not well-formed as this framework writes pages (an end tag that
    /// closes nothing open, an unclosed tag or comment).
    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        // The open elements: their names, and the element with an id each is (or -1).
        var open: [(name: ArraySlice<UInt8>, element: Int)] = []
        var index = 0
        let count = bytes.count
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            var at = start
            while at + needle.count <= count {
                if bytes[at] == needle[0] && bytes[at..<(at + needle.count)].elementsEqual(needle) { return at }
                at += 1
            }
            return nil
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let start = index
            guard index + 1 < count else { return nil }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                // A comment or the doctype.
                if bytes[index...].starts(with: Array("<!--".utf8)) {
                    guard let end = find(Array("-->".utf8), from: index + 4) else { return nil }
                    index = end + 3
                } else {
                    guard let end = find([UInt8(ascii: ">")], from: index) else { return nil }
                    index = end + 1
                }
                continue
            }
            if next == UInt8(ascii: "/") {
                guard let end = find([UInt8(ascii: ">")], from: index) else { return nil }
                let name = bytes[(index + 2)..<end]
                guard let last = open.popLast(), last.name.elementsEqual(name) else { return nil }
                index = end + 1
                if last.element >= 0 { elements[last.element].range = elements[last.element].range.lowerBound..<index }
                continue
            }
            // A start tag: its name, then its attributes.
            var cursor = index + 1
            while cursor < count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
                bytes[cursor] != UInt8(ascii: "/")
            {
                cursor += 1
            }
            let name = bytes[(index + 1)..<cursor]
            var id: String?
            var selfClosing = false
            while true {
                while cursor < count, Self.isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < count else { return nil }
                if bytes[cursor] == UInt8(ascii: ">") { break }
                if bytes[cursor] == UInt8(ascii: "/") {
                    selfClosing = true
                    cursor += 1
                    continue
                }
                let nameStart = cursor
                while cursor < count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: "="),
                    bytes[cursor] != UInt8(ascii: ">")
                {
                    cursor += 1
                }
                let attribute = bytes[nameStart..<cursor]
                guard cursor < count, bytes[cursor] == UInt8(ascii: "=") else { continue }
                cursor += 1
                var value: Range<Int>
                if cursor < count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") {
                    let quote = bytes[cursor]
                    guard let end = find([quote], from: cursor + 1) else { return nil }
                    value = (cursor + 1)..<end
                    cursor = end + 1
                } else {
                    let valueStart = cursor
                    while cursor < count, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") {
                        cursor += 1
                    }
                    value = valueStart..<cursor
                }
                if attribute.elementsEqual("id".utf8) {
                    id = String(decoding: bytes[value], as: UTF8.self)
                } else if digest == nil, attribute.elementsEqual(ScreenWire.Attribute.render.rawValue.utf8) {
                    digest = value
                }
            }
            index = cursor + 1
            let lowered = Array(name.map { $0 | 0x20 })
            var element = -1
            if let id {
                element = elements.count
                elements.append(Element(id: id, range: start..<index))
                if let parent = open.last(where: { $0.element >= 0 }) {
                    elements[parent.element].children.append(element)
                } else {
                    roots.append(element)
                }
            }
            if selfClosing || Self.voidElements.contains(lowered) { continue }
            if Self.rawTextElements.contains(lowered) {
                guard let end = find(Array("</".utf8) + Array(name), from: index) else { return nil }
                index = end
            }
            open.append((name, element))
        }
        guard open.isEmpty else { return nil }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
    }
}
