/// One step of a patch: what changed in a view tree since the last render, addressed by DOM id.
///
/// Changes come from `View.takeChanges(context:)` in the order a client must apply them:
/// structural list operations first, then replacements of the smallest dirty subtrees.
public enum ViewChange: Equatable, Sendable {
    /// Replace the element with DOM id `id` (outer HTML) by `html`.
    case replace(id: String, html: [UInt8])
    /// Insert `html` as a child of `parentID`, before the child `beforeID` (at the end when `nil`).
    case insert(parentID: String, beforeID: String?, html: [UInt8])
    /// Remove the element with DOM id `id`.
    case remove(id: String)
    /// Move the element `id` under `parentID`, before `beforeID` (at the end when `nil`).
    case move(id: String, parentID: String, beforeID: String?)
}
