import Screenplay
import Testing

@Suite struct TypeAnswersTests {
    /// Objects kept alive for the test, whose identifiers stand for types: addresses in no particular order.
    private final class Token {}

    /// The table answers as a dictionary of answers by identifier would, whatever order the identifiers come in:
    /// recorded, recorded again with another answer, asked before and after (the binder-type cache of
    /// `ViewController.reportUnboundBinders()`).
    @Test func theTableAnswersAsADictionaryWould() {
        let tokens = (0..<200).map { _ in Token() }
        let keys = tokens.map(ObjectIdentifier.init)
        var table = TypeAnswers<Bool>()
        var expected: [ObjectIdentifier: Bool] = [:]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<2_000 {
            let key = keys.randomElement(using: &generator)!
            #expect(table.answer(for: key) == expected[key], "step \(step), before")
            let answer = Bool.random(using: &generator)
            table.record(answer, for: key)
            expected[key] = answer
            #expect(table.answer(for: key) == answer, "step \(step), after")
            #expect(table.count == expected.count, "step \(step), count")
        }
        for key in keys {
            #expect(table.answer(for: key) == expected[key])
        }
        withExtendedLifetime(tokens) {}
    }

    /// An empty table answers nothing; a single entry is found and its neighbours on either side are not.
    @Test func anEmptyTableAnswersNothing() {
        let tokens = (0..<3).map { _ in Token() }
        let keys = tokens.map(ObjectIdentifier.init).sorted()
        var table = TypeAnswers<Bool>()
        #expect(table.answer(for: keys[1]) == nil)
        table.record(false, for: keys[1])
        #expect(table.answer(for: keys[0]) == nil)
        #expect(table.answer(for: keys[1]) == false)
        #expect(table.answer(for: keys[2]) == nil)
        withExtendedLifetime(tokens) {}
    }

    /// Answers of another type (a view controller class's template name) are kept and replaced the same way.
    @Test func aTableKeepsAnswersOfAnyType() {
        let tokens = (0..<50).map { _ in Token() }
        let keys = tokens.map(ObjectIdentifier.init)
        var table = TypeAnswers<String>()
        for (index, key) in keys.enumerated().reversed() { table.record("name \(index)", for: key) }
        table.record("renamed", for: keys[7])
        #expect(table.count == 50)
        for (index, key) in keys.enumerated() {
            #expect(table.answer(for: key) == (index == 7 ? "renamed" : "name \(index)"))
        }
        withExtendedLifetime(tokens) {}
    }
}
