import ScreenplayTesting
import Testing

@testable import ViewKit

@Suite struct TemplateLibraryTests {
    @Test func loadsScreensLayoutAndNibs() throws {
        let library = try Fixtures.library()
        #expect(library.templateNames == ["MovieDetail", "Views/MovieHeaderView", "layout"])
        #expect(try library.template(named: "MovieDetail").file == "MovieDetail.html")
    }

    /// The library finds its templates in its sorted names by halving: every name of a library of short names, long
    /// names (a native string's, not a small one's) and a name spelled with a combining accent is found, under any
    /// canonically equivalent spelling (as a dictionary's key is), and names between, before and after them are not.
    @Test func everyTemplateIsFoundByItsNameAndNoOtherNameIsFound() throws {
        let composed = "Caf\u{E9}"
        var names = ["A", "B", "Detail", "MovieDetail", "MoreLikeThis", "a", "z", composed]
        names += (1...12).map { "AScreenWithALongName\($0)" }
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Views/.keep": ""]), registry: Fixtures.registry(),
            builtIns: Dictionary(uniqueKeysWithValues: names.map { ($0, "<div></div>") }))
        #expect(library.templateNames == names.sorted())
        for name in names {
            #expect(try library.template(named: name).file == "(built-in \(name).html)")
        }
        #expect(try library.template(named: "Cafe\u{301}").file == "(built-in \(composed).html)")
        for missing in ["", "0", "AA", "C", "Movie", "MovieDetails", "Z", "zz", "AScreenWithALongName", "\u{10FFFF}"] {
            #expect(throws: TemplateError.self) { try library.template(named: missing) }
        }
    }

    /// A template answers whether it has an outlet from its outlets' sorted names: each of its outlets (short names and
    /// one longer than a small string) is found, and names between, before and after them are not.
    @Test func aTemplateKnowsItsOutletsByName() throws {
        let names = ["a", "b", "content", "signedIn", "userName", "anOutletWithAVeryLongName", "z"]
        let template = try Fixtures.screenTemplate(
            "<div>" + names.map { #"<p data-outlet="\#($0)"></p>"# }.joined() + "</div>")
        #expect(Set(template.outletTypes.keys) == Set(names))
        for name in names { #expect(template.hasOutlet(name)) }
        for missing in ["", "A", "aa", "account", "signedI", "signedInX", "anOutletWithAVeryLongNam", "zz"] {
            #expect(!template.hasOutlet(missing))
        }
    }

    @Test func instantiatesTypedOutletsFromDataViewAndInference() throws {
        let root = try Fixtures.library().template(named: "MovieDetail").instantiate()
        let header: MovieHeaderView = root.outlet("headerView")
        let back: Button = root.outlet("backButton")
        let poster: ImageView = root.outlet("posterImageView")
        let tips: ListView = root.outlet("tipsView")
        #expect(header.tagName == "section")
        #expect(back.title == "Back")
        #expect(back.actionName == "close")
        #expect(poster.placeholder == "/images/poster-placeholder.svg")
        #expect(poster.alternativeText == "Poster")
        #expect(tips.rows.isEmpty)
    }

    @Test func customViewsOwnTheirNibOutletsAndAwakeAfterTheirSubtreeIsAttached() throws {
        let root = try Fixtures.library().template(named: "MovieDetail").instantiate()
        let header: MovieHeaderView = root.outlet("headerView")
        #expect(header.didAwake)
        #expect(header.titleLabel.text == "Title")
        #expect(header.yearLabel.text == "—")
        // The screen does not see the nib's outlets: they belong to the header.
        #expect(root.outletIfPresent("titleLabel") == nil)
    }

    @Test func instantiatingTwiceGivesIndependentTrees() throws {
        let template = try Fixtures.library().template(named: "MovieDetail")
        let first = template.instantiate()
        let second = template.instantiate()
        let firstTitle = first.outlet("headerView", as: MovieHeaderView.self).titleLabel
        firstTitle.text = "Changed"
        #expect(second.outlet("headerView", as: MovieHeaderView.self).titleLabel.text == "Title")
        #expect(first.html != second.html)
    }

    @Test func viewsOfOneTemplateChangeTheirIdAndARIAValuesApart() throws {
        // Views made from one template node share its id and ARIA values until one of them changes its own.
        let directory = try Fixtures.temporaryTemplates([
            "Screen.html": #"<div><p id="intro" role="note" aria-label="Intro" data-outlet="intro">Hi</p></div>"#
        ])
        let library = try TemplateLibrary(directory: directory, registry: Fixtures.registry())
        let template = try library.template(named: "Screen")
        let first = template.instantiate()
        let second = template.instantiate()
        let changed = first.outlet("intro", as: Label.self)
        #expect(changed.accessibilityLabel == "Intro" && changed.accessibilityRole == "note")
        changed.accessibilityLabel = "Changed"
        changed.accessibilityRole = nil
        let untouched = second.outlet("intro", as: Label.self)
        #expect(untouched.accessibilityLabel == "Intro" && untouched.accessibilityRole == "note")
        #expect(changed.domID == "intro" && untouched.domID == "intro")
        #expect(first.html.contains(#"<p id="intro" data-outlet="intro" aria-label="Changed">Hi</p>"#))
        #expect(second.html.contains(#"<p id="intro" data-outlet="intro" role="note" aria-label="Intro">Hi</p>"#))
        let third = template.instantiate().outlet("intro", as: Label.self)
        #expect(third.accessibilityLabel == "Intro")
    }

    @Test func viewsOfOneTemplateMakingTheSameAttributeChangeShareTheResult() throws {
        let directory = try Fixtures.temporaryTemplates([
            "Screen.html": ##"<div><meta name="theme-color" content="#fff" data-outlet="theme"></div>"##
        ])
        let template = try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(
            named: "Screen")
        let (first, second, third) = (template.instantiate(), template.instantiate(), template.instantiate())
        let themes = [first, second, third].map { $0.outlet("theme", as: View.self) }
        themes[0].setAttribute("content", "#121417")
        themes[1].setAttribute("content", "#121417")
        #expect(themes[0].sharesAttributeList(with: themes[1]))
        themes[0].setAttribute("content", "#000")
        themes[2].setAttribute("content", "#121417")
        #expect(themes[1].sharesAttributeList(with: themes[2]))
        #expect(!themes[0].sharesAttributeList(with: themes[1]))
        #expect(first.html.contains(##"<meta id="v2" name="theme-color" content="#000" data-outlet="theme">"##))
        #expect(second.html.contains(##"content="#121417""##) && third.html.contains(##"content="#121417""##))
        #expect(template.instantiate().outlet("theme", as: View.self).attribute("content") == "#fff")
    }

    /// A view keeps its element name and class list in its attribute list: views of one template element share the
    /// element's until one changes its classes; the same change on other screens shares the list it made, and reads
    /// and renders as a list of the view's own did. Views made in code with one name share that name's list.
    @Test func viewsShareTheirNameAndClassListUntilTheyChangeThem() throws {
        let directory = try Fixtures.temporaryTemplates([
            "Screen.html": #"<div><p class="status muted" data-outlet="status">Saved</p></div>"#
        ])
        let template = try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(
            named: "Screen")
        let (first, second, third) = (template.instantiate(), template.instantiate(), template.instantiate())
        let labels = [first, second, third].map { $0.outlet("status", as: Label.self) }
        #expect(labels[0].sharesAttributeList(with: labels[1]) && labels[1].sharesAttributeList(with: labels[2]))
        // As an app's view changes its classes: the new list worked out, then set once.
        for label in labels.prefix(2) {
            var classes = label.classList
            classes.set("muted", false)
            classes.insert("is-error")
            label.classList = classes
        }
        #expect(labels[0].sharesAttributeList(with: labels[1]))
        #expect(!labels[0].sharesAttributeList(with: labels[2]))
        #expect(Array(labels[1].classList) == ["status", "is-error"] && labels[1].tagName == "p")
        #expect(labels[1].attribute("data-outlet") == "status")
        #expect(second.html.contains(#"class="status is-error" data-outlet="status">Saved</p>"#))
        #expect(Array(labels[2].classList) == ["status", "muted"] && labels[2].tagName == "p")
        #expect(third.html.contains(#"class="status muted" data-outlet="status">Saved</p>"#))
        labels[1].classList.insert("urgent")
        #expect(Array(labels[1].classList) == ["status", "is-error", "urgent"])
        labels[0].classList = ClassList()
        #expect(labels[0].classList.isEmpty && labels[0].attribute("class") == nil && labels[0].tagName == "p")
        #expect(Array(labels[1].classList) == ["status", "is-error", "urgent"])

        let (one, two) = (View(tagName: "section"), View(tagName: "section"))
        #expect(one.sharesAttributeList(with: two) && !one.sharesAttributeList(with: View(tagName: "aside")))
        one.classList.insert("card")
        one.setAttribute("data-kind", "film")
        #expect(one.tagName == "section" && Array(one.classList) == ["card"] && one.attribute("data-kind") == "film")
        #expect(two.tagName == "section" && two.classList.isEmpty && two.attribute("data-kind") == nil)
        #expect(
            View(tagName: "section").renderHTML(context: RenderContext()) == Array(#"<section id="v1"></section>"#.utf8)
        )
        #expect(View(tagName: "my-long-element").tagName == "my-long-element" && View().tagName == "div")
        // The common names are found by their packed bytes: each finds its own list.
        for name in AttributeList.commonNames + ["my-long-element", "dialog"] {
            let (view, again) = (View(tagName: name), View(tagName: name))
            #expect(view.tagName == name && view.sharesAttributeList(with: again) && view.classList.isEmpty)
            #expect(view.isVoidElement == (name == "img" || name == "input"), "\(name)")
            #expect(view.renderHTML(context: RenderContext()).starts(with: Array("<\(name) ".utf8)), "\(name)")
        }
    }

    /// Cells of one prototype each linking to a different movie share the lists of the screens before them (every
    /// screen of a movie links its cells to the same few movies), as far as the few changes a template remembers.
    @Test func viewsOfOneTemplateShareTheListsOfTheLastFewChangesMade() throws {
        let directory = try Fixtures.temporaryTemplates(["Screen.html": #"<div><a data-outlet="link">Film</a></div>"#])
        let template = try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(
            named: "Screen")
        func links(_ targets: [String]) -> [View] {
            targets.map { target in
                let link = template.instantiate().outlet("link", as: View.self)
                link.setAttribute("href", target)
                return link
            }
        }
        let targets = ["/movies/2", "/movies/3", "/movies/4", "/movies/5"]
        let (first, second) = (links(targets), links(targets))
        for index in targets.indices {
            #expect(first[index].sharesAttributeList(with: second[index]))
            #expect(second[index].attribute("href") == targets[index])
            #expect(second[index].html.contains(#"href="\#(targets[index])""#))
        }
        #expect(!first[0].sharesAttributeList(with: first[1]))
        // Past the few it remembers, the oldest change is forgotten: a new list, with the same attributes.
        _ = links((6..<(6 + AttributeList.recentChangeLimit)).map { "/movies/\($0)" })
        let again = links(["/movies/2"])[0]
        #expect(!again.sharesAttributeList(with: first[0]))
        #expect(again.attribute("href") == "/movies/2")
    }

    /// A remembered change is taken only for a value of the same bytes: a value canonically equivalent in other code
    /// points (a composed "é", then "e" and a combining accent) gets a list of its own, and the view renders its bytes.
    @Test func aRememberedChangeIsTakenOnlyForAValueOfTheSameBytes() throws {
        let directory = try Fixtures.temporaryTemplates(["Screen.html": #"<div><a data-outlet="link">Film</a></div>"#])
        let template = try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(
            named: "Screen")
        let (composed, decomposed) = ("/films/caf\u{E9}", "/films/cafe\u{301}")
        #expect(composed == decomposed && !Array(composed.utf8).elementsEqual(decomposed.utf8))
        var links: [View] = []
        for value in [composed, decomposed, composed, decomposed] {
            let root = template.instantiate()
            _ = root.renderHTML(context: RenderContext())
            let link = root.outlet("link", as: View.self)
            link.setAttribute("href", value)
            #expect(Array(link.attribute("href")?.utf8 ?? "".utf8) == Array(value.utf8))
            let expected = Array(#"href="\#(value)""#.utf8)
            let changes = root.takeChanges(context: RenderContext())
            guard changes.count == 1, case .replace(_, let html) = changes[0] else {
                Issue.record("expected one replacement, got \(changes)")
                continue
            }
            #expect(html.contains(expected))
            #expect(root.renderHTML(context: RenderContext()).contains(expected))
            links.append(link)
        }
        guard links.count == 4 else { return }
        #expect(!links[0].sharesAttributeList(with: links[1]))
        #expect(links[0].sharesAttributeList(with: links[2]) && links[1].sharesAttributeList(with: links[3]))
    }

    /// A view taking the list a change made lately (set or removed) is marked for render as one working the change
    /// out is, and shows it; a change back to the template's value is worked out again, and a repeated one does
    /// nothing.
    @Test func aViewTakingARememberedChangeIsRenderedWithIt() throws {
        let directory = try Fixtures.temporaryTemplates([
            "Screen.html": #"<div><a data-outlet="link" title="Film">Film</a></div>"#
        ])
        let template = try TemplateLibrary(directory: directory, registry: Fixtures.registry()).template(
            named: "Screen")
        let earlier = template.instantiate().outlet("link", as: View.self)
        earlier.setAttribute("href", "/movies/2")
        let earlierRemoval = template.instantiate().outlet("link", as: View.self)
        earlierRemoval.setAttribute("title", nil)
        for (name, value) in [("href", "/movies/2"), ("title", nil)] as [(String, String?)] {
            let root = template.instantiate()
            _ = root.renderHTML(context: RenderContext())
            let link = root.outlet("link", as: View.self)
            link.setAttribute(name, value)
            #expect(link.sharesAttributeList(with: value == nil ? earlierRemoval : earlier))
            #expect(link.attribute(name) == value)
            let changes = root.takeChanges(context: RenderContext())
            guard changes.count == 1, case .replace(let id, let html) = changes[0] else {
                Issue.record("expected one replacement, got \(changes)")
                continue
            }
            #expect(id == link.domID)
            let expected =
                value == nil
                ? #"<a id="v2" data-outlet="link">Film</a>"#
                : #"<a id="v2" data-outlet="link" title="Film" href="/movies/2">Film</a>"#
            #expect(String(decoding: html, as: UTF8.self) == expected)
            link.setAttribute(name, value)
            #expect(root.takeChanges(context: RenderContext()).isEmpty)
            link.setAttribute("title", "Film")
            #expect(link.attribute("title") == "Film")
        }
    }

    @Test func rendersTheScreenTemplate() throws {
        let root = try Fixtures.library().template(named: "MovieDetail").instantiate()
        assertSnapshot(of: root, as: .html)
    }

    @Test func rendersTheLayoutAsAWholeDocument() throws {
        let layout = try Fixtures.library().template(named: "layout").instantiate()
        #expect(layout.tagName == "html")
        let title: Label = layout.outlet("titleLabel")
        title.text = "Heat — Movies"
        let navigationBar: View = layout.outlet("navigationBar")
        navigationBar.isHidden = true
        let content: View = layout.outlet("content")
        content.addSubview(try Fixtures.library().template(named: "MovieDetail").instantiate())
        let context = RenderContext(actionPath: { "/screens/s1/actions/" + $0 }, hiddenFormFields: [("csrf", "")])
        let page = layout.renderHTML(context: context)
        let text = String(decoding: page, as: UTF8.self)
        #expect(
            text.hasPrefix(
                "<!DOCTYPE html><html id=\"v1\" lang=\"en\"><head><meta charset=\"utf-8\">"))
        #expect(text.contains("<script>window.screenplay = { version: 1 } && 1 < 2;</script>"))
        assertSnapshot(of: page, as: .html)
    }

    @Test func validatesExpectedOutlets() throws {
        let template = try Fixtures.library().template(named: "MovieDetail")
        try template.validate(
            outlets: [
                "backButton": Button.self, "headerView": MovieHeaderView.self, "posterImageView": ImageView.self,
                "tipsView": ListView.self, "headerViewAsView": View.self,
            ].filter { $0.key != "headerViewAsView" })
        try template.validate(outlets: ["headerView": View.self])
    }

    @Test func nibTemplatesMakeTheirViewClass() throws {
        let header = try Fixtures.library().template(named: "Views/MovieHeaderView").instantiate()
        #expect(header is MovieHeaderView)
        #expect((header as? MovieHeaderView)?.titleLabel.text == "Title")
    }

    @Test func staticMarkupKeepsItsTextAndDropsSourceIndentation() throws {
        let root = try Fixtures.library().template(named: "MovieDetail").instantiate()
        #expect(root.html.contains(#"<p class="intro">Tips &amp; trivia, <em>curated</em>.</p>"#))
        #expect(!root.html.contains("\n"))
    }
}

@Suite struct TemplateMarkupTests {
    private func render(_ markup: String) throws -> String {
        let directory = try Fixtures.temporaryTemplates(["Screen.html": markup])
        return try TemplateLibrary(directory: directory, registry: Fixtures.registry())
            .template(named: "Screen").instantiate().html
    }

    @Test func keepsInlineSVGNamesAndAttributeCase() throws {
        let html = try render(#"<div><svg viewBox="0 0 10 10"><linearGradient id="g"></linearGradient></svg></div>"#)
        // The `<svg>` is a plain container around a view (the gradient has an id): markup without a generated id.
        #expect(html.contains(#"<svg viewBox="0 0 10 10"><linearGradient id="g"></linearGradient></svg>"#))
    }

    /// Images load lazily unless the template says an image is above the fold.
    @Test func anImageLoadsLazilyUnlessTheTemplateAsksForEager() throws {
        let html = try render(
            #"<div><img data-outlet="a" src="/a.svg" alt="a"><img data-outlet="b" src="/b.svg" loading="eager"></div>"#)
        #expect(html.contains(#"src="/a.svg" alt="a" loading="lazy" decoding="async">"#))
        #expect(html.contains(#"src="/b.svg" alt loading="eager" decoding="async">"#))
    }

    @Test func keepsWhitespaceInPreformattedText() throws {
        let html = try render("<div><pre>a\n  b</pre><p>one\n   two</p></div>")
        #expect(html == "<div id=\"v1\"><pre>a\n  b</pre><p>one two</p></div>")
    }

    @Test func decodesEntitiesAndEscapesThemAgain() throws {
        let html = try render(#"<p title="&quot;x&quot; &amp; y">&lt;b&gt; &copy;</p>"#)
        #expect(html == #"<p id="v1" title="&quot;x&quot; &amp; y">&lt;b&gt; ©</p>"#)
    }

    @Test func dropsCommentsAndKeepsCustomElements() throws {
        let html = try render("<movie-card><!-- note --><span>Heat</span></movie-card>")
        #expect(html == #"<movie-card id="v1"><span>Heat</span></movie-card>"#)
    }
}
