import Testing
import ViewKit

@testable import Screenplay

/// The difference between a stale page and the live screen's render, as `replace` changes: the smallest elements with
/// an id that differ, nothing for equal renders, and no answer (a reset) when the shell outside every id differs.
@Suite struct RenderDifferenceTests {
    /// A page as the framework writes one: the digest on `<html>`, then `body` around the given markup.
    private static func page(_ body: String, digest: String = "0123456789abcdef", title: String = "Counter") -> [UInt8]
    {
        Array(
            ("<!DOCTYPE html><html data-render=\"\(digest)\" data-screen=\"s\"><head><title>\(title)</title>"
                + "<script type=\"module\">if (1 < 2) { document.write('<div id=\"fake\">') }</script></head>"
                + "<body>\(body)</body></html>").utf8)
    }

    private static func replaced(_ changes: [ViewChange]?) -> [String]? {
        changes?.map { change in
            guard case .replace(let id, let html) = change else { return "not a replace" }
            return id + "=" + String(decoding: html, as: UTF8.self)
        }
    }

    @Test func equalRendersButForTheirDigestsDifferInNothing() {
        let body = "<main id=\"m\"><p id=\"a\">7</p></main>"
        #expect(
            RenderDifference.changes(from: Self.page(body), to: Self.page(body, digest: "ffffffffffffffff"))?.isEmpty
                == true)
    }

    @Test func theSmallestElementWithAnIdThatDiffersIsReplaced() {
        let old = Self.page("<main id=\"m\"><h1>Count</h1><p id=\"a\" title=\"x > y\">7</p><p id=\"b\">1</p></main>")
        let new = Self.page("<main id=\"m\"><h1>Count</h1><p id=\"a\" title=\"x > y\">9</p><p id=\"b\">1</p></main>")
        #expect(Self.replaced(RenderDifference.changes(from: old, to: new)) == ["a=<p id=\"a\" title=\"x > y\">9</p>"])
    }

    @Test func twoChangesInDifferentElementsAreTwoReplacements() {
        let old = Self.page("<main id=\"m\"><p id=\"a\">7</p><section><p id=\"b\">1</p><br></section></main>")
        let new = Self.page("<main id=\"m\"><p id=\"a\">8</p><section><p id=\"b\">2</p><br></section></main>")
        #expect(
            Self.replaced(RenderDifference.changes(from: old, to: new)) == [
                "a=<p id=\"a\">8</p>", "b=<p id=\"b\">2</p>",
            ])
    }

    @Test func aChangeOutsideTheChildrenOrInTheirNumberReplacesTheParent() {
        let old = Self.page("<ul id=\"list\"><li id=\"r1\">One</li></ul>")
        let added = Self.page("<ul id=\"list\"><li id=\"r1\">One</li><li id=\"r2\">Two</li></ul>")
        #expect(
            Self.replaced(RenderDifference.changes(from: old, to: added)) == [
                "list=<ul id=\"list\"><li id=\"r1\">One</li><li id=\"r2\">Two</li></ul>"
            ])
        let classed = Self.page("<ul id=\"list\" class=\"empty\"><li id=\"r1\">One</li></ul>")
        #expect(Self.replaced(RenderDifference.changes(from: old, to: classed))?.first?.hasPrefix("list=") == true)
    }

    @Test func aDifferenceInTheShellIsNoPatch() {
        let body = "<p id=\"a\">7</p>"
        #expect(RenderDifference.changes(from: Self.page(body), to: Self.page(body, title: "Other")) == nil)
        #expect(RenderDifference.changes(from: Self.page(body), to: Self.page("<p id=\"a\">7</p><hr>")) == nil)
        #expect(RenderDifference.changes(from: Self.page(body), to: Self.page("<p id=\"z\">7</p>")) == nil)
    }

    @Test func malformedRendersAreNoPatch() {
        let good = Self.page("<p id=\"a\">7</p>")
        for bad in ["<p id=\"a\">7", "<p id=\"a\">7</div>", "<p id=\"a>7</p>", "<!-- never closed <p id=\"a\">"] {
            #expect(RenderDifference.changes(from: good, to: Self.page(bad)) == nil)
        }
    }
}
