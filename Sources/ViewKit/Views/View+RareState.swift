internal import Reactive

extension View {
    /// What few views of a tree hold; see the note at the top of the class.
    ///
    /// A template node with an explicit id or ARIA values makes one, shared by every view made from the node (as its
    /// attributes are) and never changed: a view copies it before its first change. `@unchecked Sendable` for that
    /// shared, read-only use; a view's own is confined to its tree like the view.
    final class RareState: @unchecked Sendable {
        var explicitID: String?
        var accessibilityLabel: String?
        var accessibilityRole: String?
        var invalidationHandler: (() -> Void)?
        var confinement: ScreenScheduler?
        /// `confinement`'s ``ScreenScheduler/confinementKey``: what a check compares, with no reference counted.
        var confinementKey: ScreenKey?
        var ownAllocator: DOMIDAllocator?
        /// The template's static children, still markup (see ``StaticContent``).
        var staticContent: StaticContent?
        let isShared: Bool

        var isEmpty: Bool {
            explicitID == nil && accessibilityLabel == nil && accessibilityRole == nil && invalidationHandler == nil
                && confinement == nil && ownAllocator == nil && staticContent == nil
        }

        init(isShared: Bool = false) {
            self.isShared = isShared
        }

        /// The state a template node's views start with, or nil when there is none.
        static func template(
            explicitID: String?, accessibilityLabel: String?, accessibilityRole: String?, staticContent: StaticContent?
        ) -> RareState? {
            guard explicitID != nil || accessibilityLabel != nil || accessibilityRole != nil || staticContent != nil
            else { return nil }
            let shared = RareState(isShared: true)
            shared.explicitID = explicitID
            shared.accessibilityLabel = accessibilityLabel
            shared.accessibilityRole = accessibilityRole
            shared.staticContent = staticContent
            return shared
        }

        /// Takes the values a template gives: its explicit id, ARIA values and static content.
        func takeTemplateValues(of template: RareState) {
            explicitID = template.explicitID
            accessibilityLabel = template.accessibilityLabel
            accessibilityRole = template.accessibilityRole
            staticContent = template.staticContent
        }
    }

    /// This view's own rare state, made (or copied from its template's) for a change.
    var rareState: RareState {
        if let rare, !rare.isShared { return rare }
        let created = RareState()
        if let shared = rare { created.takeTemplateValues(of: shared) }
        rare = created
        return created
    }
}
