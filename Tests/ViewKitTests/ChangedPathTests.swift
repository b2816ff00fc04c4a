import Testing

@testable import ViewKit

/// Taking a tree's changes goes down the one changed path without asking the views on it for structural changes of
/// their own (a list with some has marked any dirty child, so a view with one changed subview has none): only where
/// the path forks, or ends at a view whose subviews changed, is a view asked.
@Suite struct ChangedPathTests {
    /// A view that counts the times it is asked for its structural changes.
    final class CountingView: View {
        var asked = 0

        override func collectStructuralChanges(
            into changes: inout [ViewChange], context: inout RenderContext?, making makeContext: () -> RenderContext
        ) {
            asked += 1
        }
    }

    @Test func theViewsOnTheChangedPathAreNotAskedForStructuralChanges() {
        let root = CountingView(tagName: "main")
        var path = [root]
        for _ in 0..<4 {
            let child = CountingView(tagName: "section")
            path.last!.addSubview(CountingView(tagName: "aside"))
            path.last!.addSubview(child)
            path.append(child)
        }
        let first = Label(text: "7.9", tagName: "span")
        let second = Label(text: "Heat", tagName: "h1")
        path.last!.addSubview(first)
        path[2].addSubview(second)
        _ = root.renderHTML(context: RenderContext())

        first.text = "8.1"
        #expect(root.takeChanges(context: RenderContext()).count == 1)
        #expect(path.map(\.asked) == [0, 0, 0, 0, 0])
        #expect(!path.contains { $0.hasChanges })

        // Two changes below the third view: the path forks there, which is asked (once), and the views below it
        // on the way to the first label are passed again.
        first.text = "8.2"
        second.text = "Heat 2"
        #expect(root.takeChanges(context: RenderContext()).count == 2)
        #expect(path.map(\.asked) == [0, 0, 1, 0, 0])
        #expect(!path.contains { $0.hasChanges })
    }
}
