/// What a view kind read from its template element, applied to every view made from that element.
///
/// Made once, when templates load (``View/templateConfiguration(from:)``), and shared by every screen: it holds the
/// prepared values (a title, an axis) and sets them on each new view, with no parsing or look-up left to do. It runs
/// before the view's subviews are attached and before ``View/awakeFromNib()``.
///
/// ```swift
/// let title = element.text
/// return TemplateConfiguration(Label.self) { $0.text = title }
/// ```
public struct TemplateConfiguration: Sendable {
    let apply: @Sendable (View) -> Void

    /// A configuration that calls `configure` with each view made from the element; the view is of the kind that
    /// read the element (or a subclass of it), so `configure` receives it as `type`.
    public init<Kind: View>(_ type: Kind.Type, _ configure: @escaping @Sendable (Kind) -> Void) {
        apply = { view in
            // A prototype makes the view from the class that read the element, so the cast succeeds; a view of
            // another class is left as it is rather than trapped.
            if let view = view as? Kind { configure(view) }
        }
    }

    /// This configuration, then `next`: for a subclass that adds to what its superclass reads.
    public func followed(by next: TemplateConfiguration?) -> TemplateConfiguration {
        guard let next else { return self }
        let first = apply
        let second = next.apply
        return TemplateConfiguration(apply: { view in
            first(view)
            second(view)
        })
    }

    private init(apply: @escaping @Sendable (View) -> Void) {
        self.apply = apply
    }
}
