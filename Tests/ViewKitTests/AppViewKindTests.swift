import Testing
import ViewKit

/// A view kind an app defines: it reads `data-count` and `data-tone` from its element and shows its text beside the
/// count, as the framework's kinds read theirs.
private final class CountBadge: View {
    var count = 0 {
        didSet { if count != oldValue { setNeedsRender() } }
    }
    var tone = "info"
    var caption = ""

    override class var templateAttributes: Set<String> { ["data-count", "data-tone"] }
    override class var templateContentIsSubviews: Bool { false }

    override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        guard let count = Int(element.attribute("data-count") ?? "0"), count >= 0 else {
            throw element.error("data-count must be a whole number, not '\(element.attribute("data-count") ?? "")'")
        }
        let tone = element.attribute("data-tone") ?? "info"
        let caption = element.text
        return TemplateConfiguration(CountBadge.self) { badge in
            badge.count = count
            badge.tone = tone
            badge.caption = caption
        }
    }

    override func render(into html: inout HTMLBuffer, context: RenderContext) {
        writeStartTag(into: &html, extraClasses: ["badge", "badge-" + tone])
        html.appendText(caption + " ")
        html.appendText(String(count))
        writeEndTag(into: &html)
    }
}

@Suite struct AppViewKindTests {
    private func library(_ screen: String) throws -> TemplateLibrary {
        let registry = ViewRegistry()
        registry.register(CountBadge.self, as: "CountBadge")
        return try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": screen]), registry: registry)
    }

    @Test func anAppsKindIsMadeFromItsOwnElementAndRenders() throws {
        let template = try library(
            "<section>\n<span data-outlet=\"unread\" data-view=\"CountBadge\" data-count=\"3\" data-tone=\"alert\""
                + " title=\"Unread\">  New \n mail </span></section>"
        ).template(named: "Screen")
        try template.validate(outlets: ["unread": CountBadge.self])
        let root = template.instantiate()
        let badge: CountBadge = root.outlet("unread")
        #expect(badge.count == 3)
        #expect(badge.tone == "alert")
        // The attributes the kind read are its own; the others stay on the element.
        #expect(
            root.html
                == "<section id=\"v1\"><span id=\"v2\" class=\"badge badge-alert\" data-outlet=\"unread\" title=\"Unread\">"
                + "New mail 3</span></section>")
        badge.count = 4
        #expect(badge.needsRender)
    }

    @Test func eachViewOfAnAppsKindGetsWhatItsElementSaid() throws {
        let template = try library(
            "<div><span data-outlet=\"a\" data-view=\"CountBadge\" data-count=\"1\">A</span>"
                + "<span data-outlet=\"b\" data-view=\"CountBadge\">B</span></div>"
        ).template(named: "Screen")
        let first = template.instantiate()
        let second = template.instantiate()
        let firstBadge: CountBadge = first.outlet("a")
        firstBadge.count = 9
        #expect((second.outlet("a") as CountBadge).count == 1)
        #expect((second.outlet("b") as CountBadge).count == 0)
    }

    @Test func aMistakeInAnAppKindsElementFailsAtLoadWithFileLineAndOutlet() throws {
        do {
            _ = try library(
                "<div>\n\n<span data-outlet=\"unread\" data-view=\"CountBadge\" data-count=\"many\"></span></div>")
            Issue.record("the template loaded")
        } catch let error as TemplateError {
            #expect(
                error.description
                    == "Screen.html:3: outlet 'unread': data-count must be a whole number, not 'many'")
        }
    }

    @Test func anOutletOfTheWrongKindNamesBothKinds() throws {
        let template = try library("<div><span data-outlet=\"unread\">3</span></div>").template(named: "Screen")
        #expect(throws: TemplateError.self) { try template.validate(outlets: ["unread": CountBadge.self]) }
        do {
            try template.validate(outlets: ["unread": CountBadge.self])
        } catch {
            #expect(error.message == "expected CountBadge, found Label")
        }
    }

    @Test func aKindNotRegisteredInThisRegistryIsUnknown() throws {
        let directory = try Fixtures.temporaryTemplates([
            "Screen.html": "<div><span data-view=\"CountBadge\" data-outlet=\"unread\"></span></div>"
        ])
        #expect(throws: TemplateError.self) { _ = try TemplateLibrary(directory: directory, registry: ViewRegistry()) }
    }
}
