import Testing
import ViewKit

@Suite struct TemplateErrorTests {
    private func loadError(_ files: [String: String]) throws -> TemplateError? {
        let directory = try Fixtures.temporaryTemplates(files)
        do {
            _ = try TemplateLibrary(directory: directory, registry: Fixtures.registry())
            return nil
        } catch let error as TemplateError {
            return error
        }
    }

    @Test func unknownDataViewNamesFileLineAndOutlet() throws {
        let error = try #require(
            try loadError([
                "Screen.html": "<div>\n  <p>hi</p>\n  <div data-view=\"Nope\" data-outlet=\"x\"></div>\n</div>"
            ]))
        #expect(error.file == "Screen.html")
        #expect(error.line == 3)
        #expect(error.outlet == "x")
        #expect(
            error.description
                == "Screen.html:3: outlet 'x': unknown view class 'Nope' in data-view (register it in the ViewRegistry)"
        )
    }

    /// Found by the template fuzzer: a NUL in a tag name reached `View(tagName:)`'s precondition and trapped.
    @Test func tagNameTheRendererCannotWriteIsAnErrorNotATrap() throws {
        let error = try #require(try loadError(["Screen.html": "<div>\n<t\0ab>x</t\0ab></div>"]))
        #expect(error.file == "Screen.html")
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("invalid element name \"t"))
    }

    @Test func duplicateOutletNamesBothLines() throws {
        let error = try #require(
            try loadError(["Screen.html": "<div>\n<p data-outlet=\"a\"></p>\n\n<p data-outlet=\"a\"></p></div>"]))
        #expect(error.description == "Screen.html:4: outlet 'a': duplicate outlet (first defined at line 2)")
    }

    @Test func missingOutletOfACustomViewIsReportedAgainstItsNib() throws {
        let error = try #require(
            try loadError([
                "Screen.html": "<div><header data-view=\"MovieHeaderView\"></header></div>",
                "Views/MovieHeaderView.html": "<h1 data-outlet=\"titleLabel\"></h1>",
            ]))
        #expect(
            error.description
                == "Views/MovieHeaderView.html: outlet 'yearLabel': missing outlet MovieHeaderView needs (a Label)")
    }

    @Test func mistypedOutletOfACustomViewNamesTheLine() throws {
        let error = try #require(
            try loadError([
                "Views/MovieHeaderView.html":
                    "<h1 data-outlet=\"titleLabel\"></h1>\n<div data-outlet=\"yearLabel\"><b>x</b></div>"
            ]))
        #expect(error.description == "Views/MovieHeaderView.html:2: outlet 'yearLabel': expected Label, found View")
    }

    @Test func screenOutletsAreValidatedAgainstTheControllersExpectations() throws {
        let directory = try Fixtures.temporaryTemplates([
            "Screen.html":
                "<main>\n<h1 data-outlet=\"titleLabel\">T</h1>\n<button data-outlet=\"back\">B</button>\n</main>"
        ])
        let template = try TemplateLibrary(directory: directory, registry: Fixtures.registry())
            .template(named: "Screen")
        #expect(
            throws: TemplateError(
                file: "Screen.html", line: 0, outlet: "poster", message: "missing outlet Screen needs (a ImageView)")
        ) {
            try template.validate(outlets: ["poster": ImageView.self])
        }
        #expect(
            throws: TemplateError(file: "Screen.html", line: 3, outlet: "back", message: "expected Label, found Button")
        ) {
            try template.validate(outlets: ["back": Label.self])
        }
        try template.validate(outlets: ["titleLabel": Label.self, "back": Button.self])
    }

    @Test func aScreenNeedsExactlyOneRootElement() throws {
        let error = try #require(try loadError(["Screen.html": "<div></div>\n<div></div>"]))
        #expect(error.description == "Screen.html:2: a template needs exactly one root element, found 2")
    }

    @Test func aNibThatIncludesItselfIsAnError() throws {
        let error = try #require(
            try loadError([
                "Views/MovieHeaderView.html":
                    "<h1 data-outlet=\"titleLabel\"></h1><p data-outlet=\"yearLabel\"></p><div data-view=\"MovieHeaderView\"></div>"
            ]))
        #expect(error.message.hasPrefix("nib includes itself"))
    }

    @Test func unknownTemplateIsAnError() throws {
        let library = try Fixtures.library()
        #expect(throws: TemplateError.self) { try library.template(named: "Nope") }
    }
}
