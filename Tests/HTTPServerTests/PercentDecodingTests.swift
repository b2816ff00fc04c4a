import Testing

@testable import HTTPServer

@Suite struct PercentDecodingTests {
    @Test func decodesEscapesAndPlusOnlyWhereAsked() {
        #expect(PercentDecoding.decode("a%20b+c".utf8, plusAsSpace: true) == "a b c")
        #expect(PercentDecoding.decode("a%20b+c".utf8, plusAsSpace: false) == "a b+c")
        #expect(PercentDecoding.decode("%E2%9C%93%e2%9c%93".utf8, plusAsSpace: false) == "✓✓")
    }

    @Test func keepsMalformedEscapesLiterally() {
        #expect(PercentDecoding.decode("100%".utf8, plusAsSpace: true) == "100%")
        #expect(PercentDecoding.decode("%g1%1".utf8, plusAsSpace: true) == "%g1%1")
    }

    @Test func invalidUTF8IsReplacedOrRejected() {
        #expect(PercentDecoding.decode("%FF".utf8, plusAsSpace: true) == "\u{FFFD}")
        #expect(PercentDecoding.decode("%FF".utf8, plusAsSpace: true, strictness: .rejectingInvalidUTF8) == nil)
        #expect(PercentDecoding.decode("%C3%A9".utf8, plusAsSpace: true, strictness: .rejectingInvalidUTF8) == "é")
    }

    @Test func parsesQueryParametersInOrderWithRepeatedKeys() {
        let query = QueryParameters(parsing: "b=2&a=1&b=3&&c&=x".utf8)
        #expect(query.pairs.map(\.name) == ["b", "a", "b", "c", ""])
        #expect(query["b"] == "2")
        #expect(query.values(for: "b") == ["2", "3"])
        #expect(query["c"] == "")
        #expect(query["missing"] == nil)
        #expect(query.contains("a"))
    }
}
