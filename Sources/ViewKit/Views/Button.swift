internal import Primitives
import Reactive

/// A control that sends an action when pressed (like `UIButton`).
///
/// It renders as a real form so it works without JavaScript: the form is the button's element
/// (it carries `domID`), posts to `context.actionPath(actionName)` with the context's hidden form fields
/// (``RenderContext/hiddenFormFields``), and holds a submit `<button>` showing `title`. Classes, `aria-label` and other
/// attributes go on the `<button>`; `hidden` on the form.
///
/// ```html
/// <form id="v3" method="post" action="/actions/close"><input type="hidden" name="token"
///   value="…"><button type="submit" class="back">Back</button></form>
/// ```
///
/// The screen runtime calls `sendActions()` when the action arrives; `rx.tap` observers hear it.
public final class Button: View {
    /// The button's label text.
    public var title: String {
        get { storedTitle }
        set {
            let changed = !newValue.hasSameUTF8(as: storedTitle)
            storedTitle = newValue
            if changed { setNeedsRender() }
        }
    }

    /// Whether the button can be pressed; a disabled button renders `disabled`.
    public var isEnabled: Bool {
        get { storedIsEnabled }
        set {
            let changed = newValue != storedIsEnabled
            storedIsEnabled = newValue
            if changed { setNeedsRender() }
        }
    }

    /// The action this button posts (the last path component of its form's action URL).
    public var actionName: String {
        get { storedActionName }
        set {
            let changed = !newValue.hasSameUTF8(as: storedActionName)
            storedActionName = newValue
            if changed { setNeedsRender() }
        }
    }

    // The storage of the three, checked when compiled, as `Label`'s text is.
    private var storedTitle = ""
    private var storedIsEnabled = true
    private var storedActionName = ""

    /// The taps `sendActions()` delivers; `rx.tap` exposes them as a `ControlEvent`.
    let taps = PublishRelay<Void>()

    /// Creates a button; its element is always a `<form>`, whatever `tagName` says.
    public required init(tagName: String = "form") {
        super.init(fixedTag: View.formTag)
    }

    /// Creates a button with a title and an action name.
    public convenience init(title: String, actionName: String) {
        self.init()
        // Stored without the setters: an initializer's assignment marks nothing, as a stored property's observers do
        // not run there.
        storedTitle = title
        storedActionName = actionName
    }

    /// The attributes a button's element gives its properties.
    public override class var templateAttributes: Set<String> { ["data-action", "disabled", "type"] }

    /// A button's content is its title.
    public override class var templateContentIsSubviews: Bool { false }

    /// The element's text is the ``title``, `data-action` the ``actionName``, `disabled` clears ``isEnabled``.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let title = element.text
        let actionName = element.attribute("data-action") ?? ""
        let isEnabled = !element.hasAttribute("disabled")
        return TemplateConfiguration(Button.self) { button in
            button.title = title
            button.actionName = actionName
            button.isEnabled = isEnabled
        }
    }

    /// A `<button>` with an outlet or an action.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.tagName == "button" && (element.outlet != nil || element.hasAttribute("data-action"))
    }

    /// Delivers a tap to the observers of `rx.tap`, synchronously, if the button is enabled.
    ///
    /// The screen runtime calls it on the screen's scheduler when the button's action arrives.
    public func sendActions() {
        guard isEnabled, !isHidden else { return }
        taps.accept(())
    }

    /// The path the button posts to: its action, and the identity of the list row it is in (`?row=`), so the buttons
    /// of every row share one action name and the screen taps the one of the row posted.
    func actionURL(context: RenderContext, row: String?) -> String {
        let path = context.actionPath(actionName)
        guard let row else { return path }
        return path + "?row=" + PercentEncoding.encode(row)
    }

    /// Where the button sits, in one walk up the tree: inside a ``Form``, and in which list row.
    private func placement() -> (inForm: Bool, row: String?) {
        var inForm = false
        var row: String?
        var child: View = self
        // Up the parent links, as `enclosingForm` and `enclosingRowIdentity` go.
        while let parent = child.parent {
            if parent is Form { inForm = true }
            if row == nil, let list = parent as? ListView { row = list.identityDescription(ofRow: child) }
            child = parent
        }
        return (inForm, row)
    }

    /// Writes the form, the hidden token and the submit button; inside a ``Form``, the submit button alone, with its
    /// own `formaction`.
    public override func render(into html: inout HTMLBuffer, context: RenderContext) {
        let (inForm, row) = placement()
        if inForm {
            html.appendStatic("<button")
            writeLeadingAttributes(into: &html, includeID: true, extraClasses: [])
            html.appendStatic(isEnabled ? " type=\"submit\"" : " type=\"submit\" disabled")
            html.appendAttribute(static: "formaction", actionURL(context: context, row: row))
            writeTrailingAttributes(into: &html, includeHidden: true)
            html.append(UInt8(ascii: ">"))
            html.appendText(title)
            html.appendStatic("</button>")
            return
        }
        html.appendStatic("<form")
        writeIDAttribute(into: &html)
        html.appendStatic(" method=\"post\"")
        html.appendAttribute(static: "action", actionURL(context: context, row: row))
        if isHidden { html.appendStatic(" hidden") }
        html.append(UInt8(ascii: ">"))
        context.writeHiddenFormFields(into: &html)
        html.appendStatic("<button")
        writeLeadingAttributes(into: &html, includeID: false, extraClasses: [])
        html.appendStatic(isEnabled ? " type=\"submit\"" : " type=\"submit\" disabled")
        writeTrailingAttributes(into: &html, includeHidden: false)
        html.append(UInt8(ascii: ">"))
        html.appendText(title)
        html.appendStatic("</button></form>")
    }
}
