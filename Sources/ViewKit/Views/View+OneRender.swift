import Primitives

// MARK: - Trees rendered once

extension View {
    /// The thread-local slot that is set while the calling thread builds views for one render
    /// (``buildingForOneRender(_:)``). Its pointer only marks the build: it is never read through.
    private static let oneRenderSlot = ThreadSlot("View.oneRender")

    /// Runs `build`, whose view trees made from templates render one page and are dropped, unchanged after it: a
    /// page of a screen that is ended in the same turn (a GET's). Such trees record no path to their changes. Their
    /// views store what they are set to, and the render reads it from them; a changed view is marked for rendering
    /// as always (so its kind, and a list, decide as they would in a tree that lives, and ask for the same DOM ids in
    /// the same order: the page's ids are those of the screen that later takes it over), but the change walks no
    /// parent links to mark the ancestors and calls no invalidation handler (its confinement check stays, as
    /// the render's does). A tree rendered again, or its changes taken, after such a build would miss its changes.
    package static func buildingForOneRender<Result>(_ build: () throws -> Result) rethrows -> Result {
        let outer = oneRenderSlot.pointer
        // A mark that is never dereferenced: the slot says only whether it is set (Benchmarks/History/61).
        oneRenderSlot.set(UnsafeMutableRawPointer(bitPattern: 1))
        defer { oneRenderSlot.set(outer) }
        return try build()
    }

    /// Whether the calling thread builds views for one render (``buildingForOneRender(_:)``).
    static var isBuildingForOneRender: Bool { oneRenderSlot.pointer != nil }

    /// Whether a change of this view marks the path to it and calls the root's handler: false for a view made from a
    /// template for one render (``buildingForOneRender(_:)``), with every view the template makes below it.
    package var recordsChanges: Bool { flags & Self.unrecordedFlag == 0 }
}
