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
        let reset = ScreenEvent.reset(eventsURL: "/screens/a/events", html: Array("<html lang=\"en\"></html>".utf8))
        #expect(
            text(reset.encoded(id: 1))
                == "event: reset\nid: 1\ndata: {\"events\":\"/screens/a/events\",\"html\":\"<html lang=\\\"en\\\"></html>\"}\n\n"
        )
        #expect(
            text(ScreenEvent.navigate("/movies\r\n/2").encoded(id: 3)) == "event: navigate\nid: 3\ndata: /movies/2\n\n")
        #expect(text(ScreenEvent.title("Heat\n1995").encoded(id: 40)) == "event: title\nid: 40\ndata: Heat 1995\n\n")
    }
}
