import Testing

@testable import ViewKit

/// A collection view's layout attributes (`data-collection`, `style`) change its attribute list once, as one change
/// the template's list remembers: the collection views made from one element share the list that change made.
@Suite struct CollectionLayoutAttributesTests {
    private static let markup = """
        <main><ul data-view="CollectionView" data-outlet="posters" data-layout="strip" data-item-width="200" \
        aria-label="Posters"><li data-cell="poster"><a data-outlet="title"></a></li></ul></main>
        """

    @Test func collectionViewsOfOneElementShareTheListTheirLayoutMade() throws {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": Self.markup]), registry: ViewRegistry())
        let first = try library.template(named: "Screen").instantiate()
        let second = try library.template(named: "Screen").instantiate()
        let (one, two): (CollectionView, CollectionView) = (first.outlet("posters"), second.outlet("posters"))
        #expect(one.sharesAttributeList(with: two))
        #expect(one.attributes.map(\.name) == ["data-outlet", "data-collection", "style"])
        let html = first.renderHTML(context: RenderContext())
        #expect(
            String(decoding: html, as: UTF8.self).contains(
                #"<ul id="v2" data-outlet="posters" data-collection="strip" style="--item-width: 200px" "#
                    + #"aria-label="Posters">"#))
        #expect(html == second.renderHTML(context: RenderContext()))
    }

    /// The views made after the first take the list the first made (remembered by the template's list) and stay
    /// views of their own: a layout set in code later changes one of them only.
    @Test func laterCollectionViewsOfAnElementTakeTheRememberedListAndKeepTheirOwnLayout() throws {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": Self.markup]), registry: ViewRegistry())
        let template = try library.template(named: "Screen")
        let views = (0..<3).map { _ in template.instantiate() }
        let collections: [CollectionView] = views.map { $0.outlet("posters") }
        #expect(collections.allSatisfy { $0.layout == .strip(itemWidth: 200) })
        #expect(collections[1].sharesAttributeList(with: collections[0]))
        #expect(collections[2].sharesAttributeList(with: collections[0]))
        collections[1].layout = .grid(minimumItemWidth: 240)
        #expect(collections[1].layout == .grid(minimumItemWidth: 240))
        #expect(collections[1].attribute("data-collection") == "grid")
        #expect(collections[1].attribute("style") == "--item-width: 240px")
        #expect(!collections[1].sharesAttributeList(with: collections[0]))
        #expect(collections[0].attribute("data-collection") == "strip")
        #expect(collections[2].attribute("style") == "--item-width: 200px")
        let first = String(decoding: views[0].renderHTML(context: RenderContext()), as: UTF8.self)
        let third = String(decoding: views[2].renderHTML(context: RenderContext()), as: UTF8.self)
        #expect(first == third)
        #expect(first.contains(#"data-collection="strip" style="--item-width: 200px""#))
    }

    @Test func aCollectionViewMadeInCodeStartsInTheGridAndShowsALayoutItIsGiven() {
        let collection = CollectionView()
        #expect(collection.attribute("data-collection") == "grid")
        #expect(collection.attribute("style") == "--item-width: 160px")
        collection.setAttribute("title", "Posters")
        collection.layout = .strip(itemWidth: 120)
        #expect(collection.attributes.map(\.name) == ["data-collection", "style", "title"])
        let html = String(decoding: collection.renderHTML(context: RenderContext()), as: UTF8.self)
        #expect(html.hasPrefix(#"<ul id="v1" data-collection="strip" style="--item-width: 120px" title="Posters">"#))
        #expect(!CollectionView().sharesAttributeList(with: collection))
    }
}
