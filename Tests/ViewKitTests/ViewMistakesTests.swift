import Reactive
import Testing
import ViewKit

/// A view tree's mistakes in app code are reported to the screen and change nothing, where they used to stop the
/// process at a `precondition`.
@Suite struct ViewMistakesTests {
    /// Runs `body` on a screen of its own; the mistakes reported there, in order.
    private func mistakes(_ body: @escaping @Sendable () -> Void) -> [String] {
        let screen = ScreenScheduler(label: "view-mistakes")
        final class Reported: @unchecked Sendable { var all: [String] = [] }
        let reported = Reported()
        screen.onProgrammerError { error in reported.all.append("\(error)") }
        screen.sync { body() }
        return screen.sync { reported.all }
    }

    @Test func anInvalidElementNameMakesADivAndSaysSo() {
        let reported = mistakes {
            let view = View(tagName: "not a<name")
            #expect(view.tagName == "div")
        }
        #expect(reported.count == 1)
        #expect(reported.first?.contains("View(tagName:) was given “not a<name”") == true)
        #expect(reported.first?.contains("Fix: pass an element name") == true)
    }

    @Test func aHiddenFormFieldWhoseNameWouldNeedEscapingIsLeftOutAndSaysSo() {
        let reported = mistakes {
            let fields: HiddenFormFields = [("bad\"name", "1"), ("good", "2")]
            #expect(fields.fields.map(\.name) == ["good"])
            #expect(HiddenFormFields([("", "1")]).fields.isEmpty)
        }
        #expect(reported.count == 2)
        #expect(reported.first?.contains("HiddenFormFields was given fields named [\"bad\\\"name\"]") == true)
    }

    @Test func anInvalidAttributeNameSetsNothing() {
        let reported = mistakes {
            let view = View(tagName: "section")
            view.setAttribute("onclick=\"x\"", "1")
            view.setAttribute("data-kind", "card")
            #expect(view.attribute("data-kind") == "card")
            #expect(view.attribute("onclick=\"x\"") == nil)
        }
        #expect(reported.count == 1)
        #expect(reported.first?.contains("not an attribute name; nothing was set") == true)
    }

    @Test func aViewCannotContainItselfItsAncestorOrBeAddedToAVoidElement() {
        let reported = mistakes {
            let root = View(tagName: "section")
            let child = View(tagName: "div")
            root.addSubview(child)
            child.addSubview(root)
            root.addSubview(root)
            let image = View(tagName: "img")
            image.addSubview(View(tagName: "span"))
            #expect(root.subviews.count == 1)
            #expect(child.subviews.isEmpty)
            #expect(image.subviews.isEmpty)
            #expect(root.superview == nil)
        }
        #expect(reported.count == 3)
        #expect(reported.filter { $0.contains("cannot contain itself or its ancestor") }.count == 2)
        #expect(reported.last?.contains("<img> is a void element") == true)
    }
}
