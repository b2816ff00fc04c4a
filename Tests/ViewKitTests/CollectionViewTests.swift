import Reactive
import Testing
import ViewKit

@Suite struct CollectionViewTests {
    private func load(_ element: String, cells: String = #"<li data-cell="poster"><a data-outlet="title"></a></li>"#)
        throws -> (root: View, collection: CollectionView)
    {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": "<main>" + element + cells + "</ul></main>"]),
            registry: ViewRegistry())
        let root = try library.template(named: "Screen").instantiate()
        return (root, root.outlet("posters"))
    }

    private func feed(_ collection: CollectionView, _ ids: [Int], titles: [Int: String] = [:])
        -> CollectionViewDiffableDataSource<Int, Int>
    {
        let dataSource = CollectionViewDiffableDataSource<Int, Int>(collectionView: collection) { collection, id in
            let cell = collection.dequeueReusableCell(withReuseIdentifier: "poster")
            cell.outlet("title", as: Label.self).text = titles[id] ?? "Movie \(id)"
            return cell
        }
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems(ids)
        dataSource.apply(snapshot)
        return dataSource
    }

    @Test func theTemplateChoosesTheLayoutAndTheCellsWidth() throws {
        let (root, grid) = try load(#"<ul data-view="CollectionView" data-outlet="posters" data-item-width="180">"#)
        #expect(grid.layout == .grid(minimumItemWidth: 180))
        let html = root.html
        #expect(html.contains(#"data-collection="grid""#))
        #expect(html.contains(#"style="--item-width: 180px""#))
        // What the collection view read is not rendered as the template gave it.
        #expect(!html.contains("data-item-width"))

        let (_, strip) = try load(#"<ul data-view="CollectionView" data-outlet="posters" data-layout="strip">"#)
        #expect(strip.layout == .strip(itemWidth: 160))
        #expect(strip.attribute("data-collection") == "strip")
    }

    @Test func cellsComeFromPrototypesByIdentityAndAMoveIsOneMove() throws {
        let (root, collection) = try load(#"<ul data-view="CollectionView" data-outlet="posters">"#)
        let dataSource = feed(collection, [1, 2, 3], titles: [2: "Heat"])
        #expect(
            collection.visibleCells.map { $0.outlet("title", as: Label.self).text } == ["Movie 1", "Heat", "Movie 3"])
        _ = root.renderHTML(context: RenderContext())
        let moved = try #require(collection.cell(forItem: 3))
        var snapshot = dataSource.snapshot()
        snapshot.moveItem(3, beforeItem: 1)
        dataSource.apply(snapshot)
        #expect(
            root.takeChanges(context: RenderContext())
                == [.move(id: moved.domID, parentID: collection.domID, beforeID: collection.cell(forItem: 1)?.domID)])
        #expect(dataSource.itemIdentifier(for: moved) == 3)
    }

    @Test func changingTheLayoutInCodeIsAPatchOfTheCollectionsAttributes() throws {
        let (root, collection) = try load(#"<ul data-view="CollectionView" data-outlet="posters">"#)
        _ = feed(collection, [1])
        _ = root.renderHTML(context: RenderContext())
        collection.layout = .strip(itemWidth: 120)
        let changes = root.takeChanges(context: RenderContext())
        #expect(!changes.isEmpty)
        #expect(collection.attribute("data-collection") == "strip")
        #expect(collection.attribute("style") == "--item-width: 120px")
    }

    @Test func aWindowedGridHasSpacersAndAStripCannotBeWindowed() throws {
        let (root, grid) = try load(#"<ul data-view="CollectionView" data-outlet="posters" data-window="20">"#)
        _ = feed(grid, Array(1...100))
        let html = root.html
        #expect(grid.windowSize == 20)
        #expect(grid.visibleCells.count == 20)
        #expect(html.contains(#"data-spacer="bottom" data-rows="80""#))

        for element in [
            #"<ul data-view="CollectionView" data-outlet="posters" data-layout="strip" data-window="20">"#,
            #"<ul data-view="CollectionView" data-outlet="posters" data-layout="mosaic">"#,
            #"<ul data-view="CollectionView" data-outlet="posters" data-item-width="9000">"#,
            #"<ul data-view="CollectionView" data-outlet="posters" data-item-width="wide">"#,
        ] {
            #expect(throws: TemplateError.self) { _ = try load(element) }
        }
    }
}
