import Reactive
import Testing

@testable import ViewKit

/// Outlet and attribute names are compared as names (``Swift/String/isSameName(as:)``): the same length in UTF-8 and
/// equal, which for the ASCII names templates and attributes use is the same bytes.
@Suite struct NameComparisonTests {
    @Test func namesAreTheSameWhenTheirLengthAndTextAre() {
        let long = "similarContainer"  // longer than a small string
        #expect(long.isSameName(as: String(decoding: Array(long.utf8), as: UTF8.self)))
        #expect("link".isSameName(as: String("link")))
        #expect(!"link".isSameName(as: "links") && !"headerView".isSameName(as: "backButton"))
        #expect(!"".isSameName(as: " ") && "".isSameName(as: ""))
        // `==` finds these equal; they differ in length, so they are other names.
        #expect("caf\u{E9}" == "cafe\u{301}")
        #expect(!"caf\u{E9}".isSameName(as: "cafe\u{301}"))
    }

    /// An outlet is found by its own name, whatever storage the name is in, and not by a canonically equivalent one
    /// in other code points (which `==` matched).
    @Test func anOutletIsFoundByItsNameOnly() {
        let root = View(tagName: "section")
        let (plain, long, accented) = (View(), View(), View())
        plain.setAttribute("data-outlet", "link")
        long.setAttribute("data-outlet", String(decoding: Array("similarContainer".utf8), as: UTF8.self))
        accented.setAttribute("data-outlet", "caf\u{E9}")
        for view in [plain, long, accented] { root.addSubview(view) }
        #expect(root.outletIfPresent("link") === plain)
        #expect(root.outletIfPresent("similarContainer") === long)
        #expect(root.outletIfPresent("caf\u{E9}") === accented)
        #expect(root.outletIfPresent("cafe\u{301}") == nil)
        #expect(root.outletIfPresent("lin") == nil && root.outletIfPresent("links") == nil)
        #expect(long.isOutlet(named: "similarContainer") && !long.isOutlet(named: "similarContainers"))
        var gathered: [View] = []
        root.gatherOutlets(into: &gathered)
        #expect(gathered.count == 3 && gathered[0] === plain && gathered[2] === accented)
    }

    /// A view's list keeps its outlet name's length, which a look-up compares first; a name too long for the stored
    /// length is measured when compared, and still found by its own name only.
    @Test func anOutletNamesLengthIsKeptWithItsList() {
        let root = View(tagName: "section")
        let (short, long, none) = (View(), View(), View())
        let longName = String(repeating: "x", count: Int(UInt16.max) + 3)
        short.setAttribute("data-outlet", "link")
        long.setAttribute("data-outlet", longName)
        for view in [none, short, long] { root.addSubview(view) }
        #expect(short.attributeList.outletNameHasLength(4) && !short.attributeList.outletNameHasLength(5))
        #expect(none.attributeList.outletName == nil && !none.isOutlet(named: "") && !none.isOutlet(named: "link"))
        #expect(long.attributeList.outletNameHasLength(longName.utf8.count))
        #expect(!long.attributeList.outletNameHasLength(Int(UInt16.max)))
        #expect(root.outletIfPresent(longName) === long)
        #expect(root.outletIfPresent(String(longName.dropLast()) + "y") == nil)
        #expect(root.outletIfPresent(String(longName.dropLast())) == nil)
        #expect(long.isOutlet(named: longName, length: longName.utf8.count))
        #expect(!short.isOutlet(named: "link", length: 5))
    }

    /// `setAttribute` takes a change its template's list remembers before it checks the name; a change remembered
    /// under a name no attribute has (the class list's) is not found so, and that name is still reported.
    @Test func aRememberedAttributeChangeIsTakenAndAClassChangeIsNot() throws {
        let directory = try Fixtures.temporaryTemplates([
            "Screen.html": #"<div><a class="status" data-outlet="link">Heat</a></div>"#
        ])
        let template = try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(
            named: "Screen")
        let screen = ScreenScheduler(label: "name-comparison")
        final class Reported: @unchecked Sendable { var all: [String] = [] }
        let reported = Reported()
        screen.onProgrammerError { error in reported.all.append("\(error)") }
        screen.sync {
            let links = (0..<4).map { _ in template.instantiate().outlet("link", as: View.self) }
            links[0].setAttribute("href", "/movies/2")
            links[1].setAttribute("href", "/movies/2")
            #expect(links[1].sharesAttributeList(with: links[0]) && links[1].attribute("href") == "/movies/2")
            let remembered = links[2].attributeList.rememberedAttributeChange("href", to: "/movies/2")
            #expect(remembered === links[1].attributeList)
            #expect(links[2].attributeList.rememberedAttributeChange("href", to: "/movies/3") == nil)
            // The class list's change is remembered under a name with a space: a change, not an attribute's.
            links[3].classList = ClassList(["status", "is-new"])
            #expect(links[2].attributeList.rememberedChange(" class", to: "status is-new") != nil)
            #expect(links[2].attributeList.rememberedAttributeChange(" class", to: "status is-new") == nil)
            links[2].setAttribute(" class", "status is-new")
            #expect(Array(links[2].classList) == ["status"] && links[2].attribute(" class") == nil)
            #expect(links[2].sharesAttributeList(with: template.instantiate().outlet("link", as: View.self)))
        }
        #expect(reported.all.count == 1 && reported.all.first?.contains("not an attribute name") == true)
    }
}
