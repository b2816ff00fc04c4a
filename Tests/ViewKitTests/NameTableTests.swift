import Testing

@testable import ViewKit

@Suite struct NameTableTests {
    /// The table finds a name where a dictionary of the same names finds its key: names of ASCII and not, of one
    /// length and of several, looked up in their own spelling and in canonically equivalent ones of other lengths.
    @Test func theTableAnswersAsADictionaryWould() {
        let pieces = ["a", "b", "K", "\u{212A}", "e", "\u{E9}", "e\u{301}", "Views/", "AScreenWithALongName"]
        var generator = SystemRandomNumberGenerator()
        func randomName() -> String {
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        for _ in 0..<200 {
            var dictionary: [String: Int] = [:]
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let name = randomName()
                if dictionary[name] == nil { dictionary[name] = dictionary.count }
            }
            let table = NameTable(dictionary.keys)
            #expect(table.names.count == dictionary.count)
            for _ in 0..<40 {
                let name = randomName()
                let position = table.position(of: name)
                #expect((position != nil) == (dictionary[name] != nil), "\(name.unicodeScalars.map(\.value))")
                if let position { #expect(table.names[position] == name) }
            }
            for name in dictionary.keys { #expect(table.position(of: name).map { table.names[$0] == name } == true) }
        }
    }

    /// A name of another length in UTF-8 that is equal to one of the table's is found: a decomposed accent for a
    /// composed one and back, the Kelvin sign for `K` in an ASCII table.
    @Test func anEquivalentNameOfAnotherLengthIsFound() {
        let table = NameTable(["Caf\u{E9}", "Kelvin", "layout", "e\u{301}t\u{E9}"])
        #expect(table.position(of: "Cafe\u{301}").map { table.names[$0] } == "Caf\u{E9}")
        #expect(table.position(of: "\u{E9}te\u{301}").map { table.names[$0] } == "e\u{301}t\u{E9}")
        let ascii = NameTable(["Kelvin", "layout"])
        #expect(ascii.position(of: "\u{212A}elvin").map { ascii.names[$0] } == "Kelvin")
        #expect(ascii.position(of: "Kelvim") == nil)
        #expect(NameTable([String]()).position(of: "") == nil)
        #expect(NameTable([""]).position(of: "") == 0)
    }
}
