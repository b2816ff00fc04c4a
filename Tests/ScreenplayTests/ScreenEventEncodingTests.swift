import Screenplay
import Testing
import ViewKit

@Suite struct ScreenEventEncodingTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aPatchIsOneJSONLineWithItsMarkupEscaped() {
        let html = Array("<p class=\"a\\b\">é\t1\n2\r3\u{01}\u{1F}</p>".utf8)
        let event = ScreenEvent.patch([
            .replace(id: "v2", html: html), .insert(parentID: "v3", beforeID: nil, html: Array("<li>x</li>".utf8)),
            .remove(id: "v4"), .move(id: "v5", parentID: "v6", beforeID: "v7"),
        ])
        let expected =
            #"[["replace","v2","<p class=\"a\\b\">é\t1\n2\r3\u0001\u001f</p>"],"#
            + #"["insert","v3",null,"<li>x</li>"],["remove","v4"],["move","v5","v6","v7"]]"#
        #expect(text(event.data) == expected)
        #expect(text(event.encoded(id: 12)) == "event: patch\nid: 12\ndata: \(expected)\n\n")
    }

    @Test func markupWithNothingToEscapeIsCopiedAsIs() {
        let html = Array(String(repeating: "<b>plain text, no quotes</b>", count: 100).utf8)
        let event = ScreenEvent.patch([.replace(id: "v1", html: html)])
        #expect(text(event.data) == #"[["replace","v1",""# + text(html) + #""]]"#)
    }

    @Test func resetNavigateAndTitleKeepTheirShapes() {
        let reset = ScreenEvent.reset(html: Array("<html lang=\"en\"></html>".utf8))
        #expect(
            text(reset.encoded(id: 1)) == "event: reset\nid: 1\ndata: {\"html\":\"<html lang=\\\"en\\\"></html>\"}\n\n")
        #expect(
            text(ScreenEvent.navigate("/movies\r\n/2").encoded(id: 3)) == "event: navigate\nid: 3\ndata: /movies/2\n\n")
        #expect(text(ScreenEvent.title("Heat\n1995").encoded(id: 40)) == "event: title\nid: 40\ndata: Heat 1995\n\n")
    }

    @Test func theIDLineHoldsAnyID() {
        let event = ScreenEvent.title("A")
        #expect(text(event.encoded(id: 0)) == "event: title\nid: 0\ndata: A\n\n")
        #expect(text(event.encoded(id: Int.max)) == "event: title\nid: \(Int.max)\ndata: A\n\n")
        #expect(text(event.encoded(id: 1_000_000)) == "event: title\nid: 1000000\ndata: A\n\n")
    }

    @Test func screensSendingTheSamePatchShareItsEncoding() {
        let memo = PatchEncoding()
        var encodings = 0
        func data(_ changes: [ViewChange]) -> [UInt8] {
            memo.data(for: changes) {
                encodings += 1
                return ScreenEvent.patch($0).data
            }
        }
        // Built apart, as two screens render them: equal bytes in different storage.
        let first = data([.replace(id: "v7", html: Array("<span id=\"v7\">8.6</span>".utf8))])
        let second = data([.replace(id: "v7", html: Array("<span id=\"v7\">8.6</span>".utf8))])
        #expect(encodings == 1)
        #expect(first == second)
        #expect(first.withUnsafeBufferPointer { $0.baseAddress } == second.withUnsafeBufferPointer { $0.baseAddress })
        #expect(text(second) == #"[["replace","v7","<span id=\"v7\">8.6</span>"]]"#)
    }

    @Test func aPatchThatDiffersInAnyByteIsEncodedAnew() {
        let memo = PatchEncoding()
        let html = Array("<li>x</li>".utf8)
        let patches: [[ViewChange]] = [
            [.replace(id: "v1", html: html)],
            [.replace(id: "v2", html: html)],
            [.replace(id: "v2", html: Array("<li>y</li>".utf8))],
            [.replace(id: "v2", html: Array("<li>y</li> ".utf8))],
            [.replace(id: "v2", html: Array("<li>y</li> ".utf8)), .remove(id: "v3")],
            [.insert(parentID: "v2", beforeID: nil, html: html)],
            [.insert(parentID: "v2", beforeID: "v4", html: html)],
            [.insert(parentID: "v2", beforeID: "v5", html: html)],
            [.move(id: "v5", parentID: "v2", beforeID: "v4")],
            [.move(id: "v5", parentID: "v2", beforeID: nil)],
            [.remove(id: "v5")],
            [.remove(id: "v6")],
            [],
            [.replace(id: "v1", html: html)],
        ]
        for changes in patches {
            var encoded = false
            let data = memo.data(for: changes) {
                encoded = true
                return ScreenEvent.patch($0).data
            }
            #expect(encoded, "\(changes) reused the encoding of the patch before it")
            #expect(text(data) == text(ScreenEvent.patch(changes).data))
        }
    }

    @Test func eventsShareThePatchEncoding() {
        // The process's memo is shared with tests running alongside, which may encode a patch in between: one
        // attempt in a hundred sharing storage is enough, and without the memo none would.
        let shared = (0..<100).contains { _ in
            let html = "<b id=\"v3\">\(Int.max)</b>"
            let first = ScreenEvent.patch([.replace(id: "v3", html: Array(html.utf8))]).data
            let second = ScreenEvent.patch([.replace(id: "v3", html: Array(html.utf8))]).data
            return first.withUnsafeBufferPointer { $0.baseAddress } == second.withUnsafeBufferPointer { $0.baseAddress }
        }
        #expect(shared)
    }
}
