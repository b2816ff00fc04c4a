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
    /// The hidden fields every form that posts carries, in order, their names checked when they were made.
    public var hiddenFormFields: HiddenFormFields
    /// The attributes a ``FileField``'s `<input type="file">` carries so that an upload client on the page can send
    /// its files (the upload endpoint, the screen's id, the metadata keys); names are written as they are.
    public var uploadAttributes: [(name: String, value: String)] {
        get {
            guard let own = ownUploadAttribute else { return sharedUploadAttributes }
            var all = sharedUploadAttributes
            all.insert(own.attribute, at: Swift.min(own.index, all.count))
            return all
        }
        set {
            sharedUploadAttributes = newValue
            ownUploadAttribute = nil
        }
    }
    /// The upload attributes every page of a server shares, and the one that names its page (its screen) with its
    /// place among them: kept apart, a page's server keeps no list of its own for each page
    /// (Benchmarks/History/45-screen-memory-4.md).
    private var sharedUploadAttributes: [(name: String, value: String)] = []
    private var ownUploadAttribute: (attribute: (name: String, value: String), index: Int)?

    /// Sets ``uploadAttributes`` to `shared` with `own` inserted at `index`, without making that list.
    package mutating func setUploadAttributes(
        _ shared: [(name: String, value: String)], screen own: (name: String, value: String), at index: Int
    ) {
        sharedUploadAttributes = shared
        ownUploadAttribute = (own, index)
    }

    /// Creates a context; the defaults suit tests and static rendering.
    public init(
        actionPath: @escaping @Sendable (String) -> String = { "#" + $0 }, hiddenFormFields: HiddenFormFields = []
    ) {
        self.actionPath = actionPath
        self.hiddenFormFields = hiddenFormFields
    }

    /// Writes the hidden fields as a form that posts carries them after its start tag.
    func writeHiddenFormFields(into html: inout HTMLBuffer) {
        for field in hiddenFormFields.fields {
            // The name needs no escaping (checked when the fields were made): only the value goes through the escaper.
            html.appendStatic("<input type=\"hidden\" name=\"")
            html.appendRaw(field.name)
            html.append(UInt8(ascii: "\""))
            html.appendAttribute(static: "value", field.value)
            html.append(UInt8(ascii: ">"))
        }
    }
}

/// The hidden fields every form that posts carries (`<input type="hidden" name="…" value="…">` each, in order), with
/// their names checked once, when made: a page's server makes them once and renders with them many times.
///
/// Names are letters, digits, `-` and `_`, written as they are; values are escaped. A field whose name is anything
/// else is left out, and a ``ProgrammerError`` says so.
///
/// ```swift
/// let fields: HiddenFormFields = [("token", token)]
/// let context = RenderContext(actionPath: { "/actions/" + $0 }, hiddenFormFields: fields)
/// ```
public struct HiddenFormFields: Sendable, ExpressibleByArrayLiteral {
    /// The fields, in order.
    public let fields: [(name: String, value: String)]

    /// Checks the fields' names; a field whose name is not letters, digits, `-` and `_` is left out and reported.
    public init(_ fields: [(name: String, value: String)]) {
        guard !fields.allSatisfy({ Self.isPlainName($0.name) }) else {
            self.fields = fields
            return
        }
        ProgrammerErrors.report(
            ProgrammerError(
                mistake: "HiddenFormFields was given fields named "
                    + "\(fields.map(\.name).filter { !Self.isPlainName($0) }); they are left out.",
                fix: "name hidden form fields with letters, digits, - and _ (“token”, “form-token”)."))
        self.fields = fields.filter { Self.isPlainName($0.name) }
    }

    /// The fields of the literal, checked as ``init(_:)`` checks them.
    public init(arrayLiteral elements: (name: String, value: String)...) {
        self.init(elements)
    }

    private static func isPlainName(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                return false
            }
        }
        return true
    }
}
