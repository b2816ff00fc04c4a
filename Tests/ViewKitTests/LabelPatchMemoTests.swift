import Testing

@testable import ViewKit

/// The screens a change reaches render the same label alike: one renders its markup for the patch, the others take
/// those bytes (``LabelPatchMarkup``); a label whose markup would differ in any byte renders its own.
@Suite struct LabelPatchMemoTests {
    private static let markup = """
        <main><p data-outlet="title">Heat</p><span class="rating" data-outlet="rating">7.9</span></main>
        """

    private static func screens(_ count: Int) throws -> [View] {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": Self.markup]), registry: ViewRegistry())
        let template = try library.template(named: "Screen")
        return (0..<count).map { _ in
            let root = template.instantiate()
            _ = root.renderHTML(context: RenderContext())
            return root
        }
    }

    /// The one change of a tree whose one label changed: its id and markup.
    private static func change(of root: View) -> (id: String, html: [UInt8])? {
        let changes = root.takeChanges(context: RenderContext())
        guard changes.count == 1, case .replace(let id, let html) = changes[0] else { return nil }
        return (id, html)
    }

    private static func storage(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    /// Screens of one template given the same rating send the same bytes, and all of them the first one's (one
    /// buffer): made once. A template of this test's own, so no other test's labels share its elements.
    @Test func screensShowingTheSameTextShareTheLabelsMarkup() throws {
        let roots = try Self.screens(3)
        var made: [(id: String, html: [UInt8])] = []
        for root in roots {
            let rating: Label = root.outlet("rating")
            rating.text = "8.1"
            made.append(try #require(Self.change(of: root)))
            #expect(!root.hasChanges)
        }
        let expected = #"<span id="v3" class="rating" data-outlet="rating">8.1</span>"#
        #expect(made.allSatisfy { $0.id == "v3" && String(decoding: $0.html, as: UTF8.self) == expected })
        #expect(made.allSatisfy { Self.storage($0.html) == Self.storage(made[0].html) })
        // Rendered again on a later change: the text it was rendered with is the label's.
        let rating: Label = roots[0].outlet("rating")
        rating.text = "8.2"
        let next = try #require(Self.change(of: roots[0]))
        #expect(
            String(decoding: next.html, as: UTF8.self)
                == #"<span id="v3" class="rating" data-outlet="rating">8.2</span>"#)
    }

    /// The memo keeps the generated id's string with the bytes: the labels that take the bytes take the id as well,
    /// made once with the entry; a label of another id renders, and its entry keeps its own id.
    @Test func theMemoKeepsTheIDsString() throws {
        let roots = try Self.screens(1)
        let rating: Label = roots[0].outlet("rating")
        let tag = try #require(rating.unchangedTemplateStartTag)
        var rendered = 0
        let render = {
            rendered += 1
            return Array("<span>x</span>".utf8)
        }
        let first = tag.labelMarkup(id: 3, text: "x", render: render)
        let second = tag.labelMarkup(id: 3, text: "x", render: render)
        #expect(first.id == "v3" && second.id == "v3" && rendered == 1)
        let other = tag.labelMarkup(id: 1_234_567, text: "x", render: render)
        #expect(other.id == "v1234567" && rendered == 2)
        #expect(tag.labelMarkup(id: 1_234_567, text: "x", render: render).id == "v1234567" && rendered == 2)
    }

    /// A patch whose labels all take markup another screen rendered makes no render context; one that renders makes
    /// it once, however many of its views render (``View/takeChanges(makingContext:)``).
    @Test func aPatchOfSharedLabelsMakesNoRenderContext() throws {
        let roots = try Self.screens(3)
        var made = 0
        let makeContext = {
            made += 1
            return RenderContext()
        }
        for (index, root) in roots.enumerated() {
            let rating: Label = root.outlet("rating")
            rating.text = "9.4"
            let title: Label = root.outlet("title")
            if index == 2 { title.text = "Heat, again" }
            #expect(root.takeChanges(makingContext: makeContext).count == (index == 2 ? 2 : 1))
            #expect(made == (index == 0 ? 1 : index == 1 ? 1 : 2), "screen \(index)")
        }
    }

    /// A label with another text, another element of the template, or a start tag that is no longer its template's
    /// (hidden, another class) renders its own bytes, whatever the memo holds.
    @Test func labelsThatRenderOtherBytesRenderTheirOwn() throws {
        let roots = try Self.screens(4)
        let ratings: [Label] = roots.map { $0.outlet("rating") }
        ratings[0].text = "8.1"
        _ = try #require(Self.change(of: roots[0]))

        ratings[1].text = "8.2"
        #expect(String(decoding: try #require(Self.change(of: roots[1])).html, as: UTF8.self).contains(">8.2<"))

        let title: Label = roots[1].outlet("title")
        title.text = "8.2"
        let titleChange = try #require(Self.change(of: roots[1]))
        #expect(titleChange.id == "v2")
        #expect(String(decoding: titleChange.html, as: UTF8.self) == #"<p id="v2" data-outlet="title">8.2</p>"#)

        ratings[2].text = "8.2"
        ratings[2].isHidden = true
        #expect(
            String(decoding: try #require(Self.change(of: roots[2])).html, as: UTF8.self)
                == #"<span id="v3" class="rating" data-outlet="rating" hidden>8.2</span>"#)

        ratings[3].text = "8.2"
        ratings[3].classList.insert("new")
        #expect(
            String(decoding: try #require(Self.change(of: roots[3])).html, as: UTF8.self)
                == #"<span id="v3" class="rating new" data-outlet="rating">8.2</span>"#)
    }
}
