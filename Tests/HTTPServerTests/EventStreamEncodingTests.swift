import Testing

@testable import HTTPServer

@Suite struct EventStreamEncodingTests {
    private func encode(event: String? = nil, id: String? = nil, data: String) -> String {
        String(decoding: EventStream.encode(event: event, id: id, data: data), as: UTF8.self)
    }

    @Test func anEventInANamespaceWritesTheNamespaceBeforeItsId() {
        let event = FramedEvent(name: "patch", id: 12, lineOfData: Array("[1]".utf8))
        let named = event.inNamespace("Ab-9_z")
        #expect(String(decoding: named.bytes, as: UTF8.self) == "event: patch\nid: Ab-9_z.12\ndata: [1]\n\n")
        #expect(named.count == named.bytes.count)
        #expect(String(decoding: event.bytes, as: UTF8.self) == "event: patch\nid: 12\ndata: [1]\n\n")
        #expect(event.count == event.bytes.count)
    }

    /// An event's size (``FramedEvent/count``), worked out when it is made and named, is the size of the bytes it
    /// frames: for ids of any sign and length, data empty or not, in a namespace, and named again in another.
    @Test func anEventsSizeIsItsFramedBytesAfterEveryNaming() {
        for id in [0, 9, 10, 99_999, Int.max, -1, -10, Int.min] {
            for data in [[], Array("[1,\"é\"]".utf8)] {
                let event = FramedEvent(name: "patch", id: id, lineOfData: data)
                let named = event.inNamespace("Ab-9_z")
                let renamed = named.inNamespace("q")
                let framed = FramedEvent(name: "título", id: id, data: data)!.inNamespace("")
                for event in [event, named, renamed, framed] {
                    #expect(event.count == event.bytes.count, "\(id)")
                }
                #expect(String(decoding: renamed.bytes, as: UTF8.self).hasPrefix("event: patch\nid: q.\(id)\n"))
            }
        }
    }

    /// An event appended to bytes a stream still holds (``FramedEvent/append(to:count:)``) is the bytes it frames
    /// alone, for ids of any sign and length, with and without a namespace; what was there stays in front.
    @Test func anEventAppendedBehindUnsentBytesIsItsFramedBytes() {
        for id in [0, 7, 12, 99_999, Int.max, -1, Int.min] {
            for event in [
                FramedEvent(name: "patch", id: id, lineOfData: Array("[1]".utf8)),
                FramedEvent(name: "title", id: id, lineOfData: []).inNamespace("Ab-9_z"),
            ] {
                var bytes = Array(": hb\n\n".utf8)
                event.append(to: &bytes, count: event.count)
                #expect(bytes == Array(": hb\n\n".utf8) + event.bytes, "\(id)")
                #expect(bytes.count == 6 + event.count)
            }
        }
    }

    @Test func encodesEventIdAndData() {
        #expect(encode(event: "patch", id: "7", data: "<p>hi</p>") == "event: patch\nid: 7\ndata: <p>hi</p>\n\n")
        #expect(encode(data: "plain") == "data: plain\n\n")
    }

    @Test func splitsMultiLineDataAtEveryKindOfLineBreak() {
        #expect(encode(data: "a\nb\r\nc\rd") == "data: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(encode(data: "trailing\n") == "data: trailing\ndata: \n\n")
        #expect(encode(data: "") == "data: \n\n")
    }

    @Test func removesLineBreaksFromEventNameAndId() {
        #expect(encode(event: "a\nb", id: "1\r\n2\u{0}", data: "x") == "event: ab\nid: 12\ndata: x\n\n")
    }
}
