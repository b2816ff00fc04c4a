import Foundation
import Testing

@testable import ViewKit

/// Renders whose result is the copy `bytes` makes take the thread's spare storage and give it back.
@Suite struct ReusedStorageTests {
    private func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aRenderReusesTheStorageTheLastRenderOnItsThreadGaveBack() {
        // Told apart by size (a freed storage's address may well be the next one's): the first render grows its
        // storage past 4 KB; the second asks for 16 bytes and gets the grown one.
        let grown = HTMLBuffer.withReusedStorage(capacity: 16) { html in
            html.appendText(String(repeating: "x", count: 5000))
            return html.storageCapacity
        }
        #expect(grown >= 5000)
        let next = HTMLBuffer.withReusedStorage(capacity: 16) { html in
            html.appendText("two")
            return html.storageCapacity
        }
        #expect(next == grown)
    }

    @Test func aReusedStorageStartsEmptyWhateverTheLastRenderWrote() {
        let long = String(repeating: "a<b ", count: 500)
        let written = HTMLBuffer.withReusedStorage(capacity: 16) { html in
            html.appendText(long)
            return html.bytes
        }
        #expect(string(written) == String(repeating: "a&lt;b ", count: 500))
        let short = HTMLBuffer.withReusedStorage(capacity: 16) { html in
            html.appendText("x & y")
            return html.bytes
        }
        #expect(string(short) == "x &amp; y")
    }

    @Test func aRenderInsideARenderWritesToAStorageOfItsOwn() {
        let (outer, inner) = HTMLBuffer.withReusedStorage(capacity: 64) { html -> ([UInt8], [UInt8]) in
            html.appendText("outer ")
            let inner = HTMLBuffer.withReusedStorage(capacity: 64) { nested in
                nested.appendText("inner")
                return nested.bytes
            }
            html.appendText("again")
            return (html.bytes, inner)
        }
        #expect(string(outer) == "outer again")
        #expect(string(inner) == "inner")
    }

    @Test func aBufferCopiedOutOfTheRenderIsNotTakenBack() {
        let kept = HTMLBuffer.withReusedStorage(capacity: 64) { html -> HTMLBuffer in
            html.appendText("kept")
            return html
        }
        let next = HTMLBuffer.withReusedStorage(capacity: 64) { html -> ObjectIdentifier in
            html.appendText("next")
            return html.storageIdentity
        }
        #expect(next != kept.storageIdentity)
        #expect(string(kept.bytes) == "kept")
    }

    @Test func aStorageLargerThanTheLimitIsNotKept() {
        // Grown past the limit by what was written, whatever storage it began with.
        let large = HTMLBuffer.withReusedStorage(capacity: 64) { html in
            html.appendText(String(repeating: "x", count: HTMLBuffer.spareLimit + 1))
            return html.storageCapacity
        }
        #expect(large > HTMLBuffer.spareLimit)
        // (Compared by size: the freed storage's address may well be the next one's.)
        let next = HTMLBuffer.withReusedStorage(capacity: 64) { html in html.storageCapacity }
        #expect(next <= HTMLBuffer.spareLimit)
    }

    @Test func viewsRenderTheSameOnManyThreadsAtOnce() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let view = Label(text: "label \(index) & more", tagName: "p")
                    let expected = "<p id=\"v1\">label \(index) &amp; more</p>"
                    return (0..<200).allSatisfy { _ in string(view.renderHTML(context: RenderContext())) == expected }
                }
            }
            for await rendered in group { #expect(rendered) }
        }
    }
}
