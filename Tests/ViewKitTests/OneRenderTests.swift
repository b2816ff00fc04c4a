import Testing

@testable import ViewKit

/// A tree built for one render (``View/buildingForOneRender(_:)``) records no path to its changes, and renders every
/// value it was given, with the DOM ids the same tree built to live gives its views.
@Suite struct OneRenderTests {
    private static let markup = """
        <main><h1 class="title" data-outlet="title">Title</h1><p class="note">Static</p>\
        <img data-outlet="poster" data-view="ImageView"><ol data-view="ListView" data-outlet="steps"></ol>\
        <ul data-view="CollectionView" data-outlet="posters" data-layout="strip">\
        <li data-cell="poster" class="cell"><a data-outlet="link" class="link"><span data-outlet="name"></span></a></li>\
        </ul></main>
        """

    /// Builds the tree and changes it as a binder would: a label, an image, a hidden view made from static markup, an
    /// attribute, a list filled with rows (which asks its rows' ids as it records their insertion in a tree that
    /// lives) and a collection filled with cells that are changed in turn.
    private static func buildAndChange() throws -> View {
        let root = try Fixtures.screenTemplate(markup).instantiate()
        root.outlet("title", as: Label.self).text = "Heat"
        root.outlet("poster", as: ImageView.self).imageURL = "/posters/1.jpg"
        root.subviews[1].isHidden = true
        root.subviews[0].setAttribute("data-kind", "detail")
        root.outlet("steps", as: ListView.self).update(
            with: ["Boil", "Pour", "Wait"], id: { $0 }, makeRow: { _ in Label(tagName: "li") },
            configureRow: { row, step in (row as? Label)?.text = step })
        let collection = root.outlet("posters", as: CollectionView.self)
        let dataSource = CollectionViewDiffableDataSource<Int, Int>(collectionView: collection) { collection, id in
            let cell = collection.dequeueReusableCell(withReuseIdentifier: "poster")
            cell.outlet("link", as: View.self).setAttribute("href", "/movies/\(id)")
            cell.outlet("name", as: Label.self).text = "Movie \(id)"
            return cell
        }
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems([2, 3, 5])
        dataSource.apply(snapshot)
        collection.visibleCells[1].classList.insert("seen")
        return root
    }

    /// Every view of the tree, the markup made into views included.
    private static func allViews(_ root: View) -> [View] {
        [root] + root.subviews.flatMap(allViews)
    }

    @Test func aTreeBuiltForOneRenderMarksNoPathAndRendersWhatItWasGivenWithTheSameIDs() throws {
        let living = try Self.buildAndChange()
        let once = try View.buildingForOneRender { try Self.buildAndChange() }
        #expect(living.recordsChanges)
        #expect(living.hasDirtyDescendant)
        // No view of the tree built once has a change recorded below it; those made from the template record none
        // (the list's rows, made in code, would mark their path, were there one).
        let views = Self.allViews(once)
        let livingViews = Self.allViews(living)
        #expect(views.count == livingViews.count)
        #expect(views.filter(\.hasDirtyDescendant).isEmpty)
        let collection = once.outlet("posters", as: CollectionView.self)
        let fromTemplate =
            [once, once.outlet("title"), once.outlet("steps"), collection] + collection.subviews.flatMap(Self.allViews)
        #expect(fromTemplate.filter { $0.tagName != "#text" }.allSatisfy { !$0.recordsChanges })
        // Its changed views are marked as a living tree's are, so its list asked for its rows' ids in the same order.
        #expect(views.map(\.needsRender) == livingViews.map(\.needsRender))
        #expect(once.html == living.html)
        #expect(once.html.contains(#"data-outlet="name">Movie 3</span>"#))
        #expect(once.html.contains(#"class="cell seen""#))
    }

    @Test func onlyTheBuildRecordsNothing() throws {
        let outer = try View.buildingForOneRender {
            try View.buildingForOneRender { _ = try Self.buildAndChange() }
            return try Self.buildAndChange()
        }
        #expect(!outer.recordsChanges)
        let after = try Self.buildAndChange()
        #expect(after.recordsChanges)
        #expect(after.hasChanges)
    }
}
