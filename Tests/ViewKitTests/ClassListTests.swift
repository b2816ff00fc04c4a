import Testing
import ViewKit

@Suite struct ClassListTests {
    @Test func insertKeepsOrderAndDropsDuplicatesAndEmptyNames() {
        var classes = ClassList()
        for name in ["card", "", "hero", "card"] { classes.insert(name) }
        #expect(Array(classes) == ["card", "hero"])
        #expect(classes.value == "card hero")
    }

    @Test(arguments: [
        ("a b", ["a", "b"]), ("a\tb\nc", ["a", "b", "c"]), ("  padded  ", ["padded"]), ("a\r\nb", ["a", "b"]),
        ("café crème", ["café", "crème"]), ("a\u{2003}b", ["a", "b"]), ("ünï", ["ünï"]), ("x\u{0C}y", ["x", "y"]),
    ])
    func namesHoldingWhitespaceAreSplit(name: String, expected: [String]) {
        var classes = ClassList()
        classes.insert(name)
        #expect(Array(classes) == expected)
    }

    @Test func setAddsAndRemoves() {
        var classes: ClassList = ["a"]
        classes.set("error", true)
        #expect(classes.contains("error"))
        classes.set("error", false)
        #expect(Array(classes) == ["a"])
    }

    @Test func removeTakesOutTheNameWhereverItIsAndLeavesTheRest() {
        let original: ClassList = ["first", "middle", "last", "x y"]
        for (name, rest) in [
            ("first", ["middle", "last", "x", "y"]), ("middle", ["first", "last", "x", "y"]),
            ("y", ["first", "middle", "last", "x"]), ("absent", ["first", "middle", "last", "x", "y"]),
            ("mid", ["first", "middle", "last", "x", "y"]),
        ] {
            var copy = original
            copy.remove(name)
            #expect(Array(copy) == rest, "\(name)")
            #expect(Array(original) == ["first", "middle", "last", "x", "y"])
        }
        var emptied: ClassList = ["only"]
        emptied.remove("only")
        #expect(emptied.isEmpty)
    }
}
