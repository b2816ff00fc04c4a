import Primitives
import Testing

/// `String.withUTF8Bytes`, which rendering, escaping and event framing read strings through: the bytes of every
/// kind of string, and its body run once, whatever it returns.
@Suite struct UTF8BytesTests {
    @Test func givesTheUTF8OfSmallLargeAndNonASCIIStrings() {
        let strings = [
            "", "a", "fifteen bytes..", "sixteen bytes...", String(repeating: "long text ", count: 50), "Amélie",
            "🎬 “Heat” — 1995", String(repeating: "ü", count: 40), "a\u{0}b",
        ]
        for string in strings {
            let bytes = string.withUTF8Bytes { Array($0) }
            #expect(bytes == Array(string.utf8), "\(string)")
        }
        // A substring's copy, and a string made from one, are read like any other.
        let sliced = String("prefix and the rest".dropFirst(7))
        #expect(sliced.withUTF8Bytes { Array($0) } == Array("and the rest".utf8))
    }

    @Test func runsItsBodyOnceEvenWhenTheBodyReturnsNil() {
        for string in ["short", String(repeating: "x", count: 100)] {
            var runs = 0
            let result: Int? = string.withUTF8Bytes { _ in
                runs += 1
                return nil
            }
            #expect(result == nil)
            #expect(runs == 1, "\(string.count) bytes")
        }
    }

    @Test func passesErrorsThrough() {
        struct Stop: Error {}
        #expect(throws: Stop.self) { try "text".withUTF8Bytes { _ in throw Stop() } }
    }
}
