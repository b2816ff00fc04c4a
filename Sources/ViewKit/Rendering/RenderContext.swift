internal import Reactive

/// What rendering needs to know about the page a view tree is shown on, supplied by the layer that serves the page.
///
/// A form that posts (a ``Button``'s, a ``Form``) posts its action to `actionPath(actionName)` and carries
/// `hiddenFormFields`, in order, as hidden inputs right after its start tag: whatever the page's server needs back
/// with every post (a screen layer's request-forgery token, say). ViewKit gives them no meaning. The default
/// context renders actions as fragment links and no hidden fields, which suits static rendering and tests.
///
/// ```swift
/// let context = RenderContext(actionPath: { "/actions/" + $0 }, hiddenFormFields: [("token", token)])
/// let page = root.renderHTML(context: context)
/// ```
public struct RenderContext: Sendable {
    /// Maps an action name to the URL path its form posts to.
    public var actionPath: @Sendable (String) -> String
    /// The hidden fields every form that posts carries, in order: `<input type="hidden" name="…" value="…">` each.
    /// Names are letters, digits, `-` and `_` (checked once, here, so that every form writes them as they are);
    /// values are escaped.
    public let hiddenFormFields: [(name: String, value: String)]

    /// Creates a context; the defaults suit tests and static rendering.
    ///
    /// A hidden field whose name is not letters, digits, `-` and `_` is left out, and a ``ProgrammerError`` says so.
    public init(
        actionPath: @escaping @Sendable (String) -> String = { "#" + $0 },
        hiddenFormFields: [(name: String, value: String)] = []
    ) {
        self.actionPath = actionPath
        if hiddenFormFields.allSatisfy({ Self.isPlainName($0.name) }) {
            self.hiddenFormFields = hiddenFormFields
        } else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "RenderContext was given hidden form fields named "
                        + "\(hiddenFormFields.map(\.name).filter { !Self.isPlainName($0) }); they are left out.",
                    fix: "name hidden form fields with letters, digits, - and _ (“csrf”, “form-token”)."))
            self.hiddenFormFields = hiddenFormFields.filter { Self.isPlainName($0.name) }
        }
    }

    /// Writes the hidden fields as a form that posts carries them after its start tag.
    func writeHiddenFormFields(into html: inout HTMLBuffer) {
        for field in hiddenFormFields {
            // The name needs no escaping (`isPlainName`): only the value goes through the escaper.
            html.appendStatic("<input type=\"hidden\" name=\"")
            html.appendRaw(field.name)
            html.append(UInt8(ascii: "\""))
            html.appendAttribute(static: "value", field.value)
            html.append(UInt8(ascii: ">"))
        }
    }

    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    return true
                default:
                    return false
                }
            }
    }
}
