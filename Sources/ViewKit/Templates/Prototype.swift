/// An immutable, pre-resolved node of a template: instantiating it is a straight walk that creates
/// views and copies prepared values, with no parsing, look-ups or checks left to do.
///
/// A class, not a struct: each screen instantiates the tree, and reading a struct node out of its
/// parent's array copied it (a retain and release per string, class list and attribute array in
/// it); a reference costs one.
final class Prototype: Sendable {
    enum Kind: Sendable {
        case text(String, isRaw: Bool)
        case element(ElementNode)
    }

    /// An element's prepared values behind one reference: taking the node out of `Kind` costs
    /// one retain, where taking the struct out copied (retained) each of its strings and arrays.
    final class ElementNode: Sendable {
        let element: Element

        init(_ element: Element) {
            self.element = element
        }
    }

    /// What a specific view class takes from its element.
    enum Configuration: Sendable {
        case none
        case label(text: String)
        case button(title: String, actionName: String, isEnabled: Bool)
        case image(alternativeText: String, placeholder: String?, loadsEagerly: Bool)
        case stack(axis: StackView.Axis, spacing: Int)
    }

    struct Element: Sendable {
        var viewType: View.Type
        var tagName: String
        var attributes: [(name: String, value: String)]
        var explicitID: String?
        var classList: ClassList
        var isHidden: Bool
        var accessibilityLabel: String?
        var accessibilityRole: String?
        var configuration: Configuration
        var isOutletScope: Bool
    }

    let kind: Kind
    let children: [Prototype]
    let line: Int
    /// The element's attributes, rendered once here and shared by every view made from this node.
    let attributeList: AttributeList?
    /// The element's explicit id and ARIA values, likewise shared.
    let rareState: View.RareState?

    init(kind: Kind, children: [Prototype], line: Int) {
        self.kind = kind
        self.children = children
        self.line = line
        if case .element(let node) = kind, !node.element.attributes.isEmpty {
            attributeList = AttributeList(node.element.attributes, isTemplate: true)
        } else {
            attributeList = nil
        }
        if case .element(let node) = kind {
            rareState = View.RareState.template(
                explicitID: node.element.explicitID, accessibilityLabel: node.element.accessibilityLabel,
                accessibilityRole: node.element.accessibilityRole)
        } else {
            rareState = nil
        }
    }

    /// Creates the view tree; each view's `awakeFromNib()` runs once its subtree is attached.
    func instantiate() -> View {
        switch kind {
        case .text(let text, let isRaw):
            return isRaw ? RawTextNode(text: text) : TextNode(text: text)
        case .element(let node):
            let view = node.element.viewType.init(tagName: node.element.tagName)
            view.adoptTemplateState(node.element, attributes: attributeList, rare: rareState)
            switch node.element.configuration {
            case .none: break
            case .label(let text): (view as? Label)?.text = text
            case .button(let title, let actionName, let isEnabled):
                if let button = view as? Button {
                    button.title = title
                    button.actionName = actionName
                    button.isEnabled = isEnabled
                }
            case .image(let alternativeText, let placeholder, let loadsEagerly):
                if let image = view as? ImageView {
                    image.alternativeText = alternativeText
                    image.placeholder = placeholder
                    image.loadsEagerly = loadsEagerly
                }
            case .stack(let axis, let spacing):
                if let stack = view as? StackView {
                    stack.axis = axis
                    stack.spacing = spacing
                }
            }
            // Exact capacity: the array lives as long as the screen, and growing it by doubling
            // would leave up to half of it unused.
            view.reserveSubviewCapacity(children.count)
            for child in children { view.appendSubviewQuietly(child.instantiate()) }
            view.awakeFromNib()
            return view
        }
    }
}
