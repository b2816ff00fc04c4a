/// What a text field and a text view share (as both adopt `UITextInput` in UIKit): the text, its placeholder, and
/// the check of a value from the browser.
public class TextInput: Field {
    /// The text shown; setting a different value renders the field (the page applies it unless the user is typing
    /// there).
    public var text = "" {
        didSet { if !isApplyingInput && !text.hasSameUTF8(as: oldValue) { setNeedsRender() } }
    }

    /// The hint shown while the field is empty.
    public var placeholder = "" {
        didSet { if !placeholder.hasSameUTF8(as: oldValue) { setNeedsRender() } }
    }

    /// A field's, then its text (`value`, or a text view's content) and `placeholder`.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let text = templateText(of: element)
        let placeholder = element.attribute("placeholder") ?? ""
        return try super.templateConfiguration(from: element)?.followed(
            by: TemplateConfiguration(TextInput.self) { input in
                input.text = text
                input.placeholder = placeholder
            })
    }

    /// The text a template gives the input: its `value`.
    class func templateText(of element: TemplateElement) -> String {
        element.attribute("value") ?? ""
    }

    override func check(_ value: String) throws(FieldInputError) {
        if value.utf8.contains(0) { throw FieldInputError("The value of “\(name)” holds a NUL character.") }
    }

    override func acceptInput(_ value: String?) -> Bool {
        let value = value ?? ""
        guard !text.hasSameUTF8(as: value) else { return false }
        withoutRendering { text = value }
        return true
    }

    public override var formValue: String? { text }
}

/// A one-line text input (like `UITextField`), rendered as an `<input>` inside its ``Field`` wrapper.
///
/// ```html
/// <input data-outlet="titleField" data-label="Title" placeholder="Heat" maxlength="200">
/// <input data-outlet="yearField" data-label="Year" type="number">
/// ```
///
/// ```swift
/// driver.title.drive(viewController.titleField.rx.text)           // the server sets the value
/// viewController.titleField.rx.text.orEmpty.bind(to: driver.titleInput)  // the user's typing reaches the driver
/// ```
public final class TextField: TextInput {
    /// What the input holds, as the `type` attribute says it.
    public enum Kind: String, Sendable, CaseIterable {
        case text, search, email, number, password, url, tel
    }

    /// The input's type; `.number` refuses input that is not a number.
    public var kind = Kind.text {
        didSet { if kind != oldValue { setNeedsRender() } }
    }

    /// Whether the text is hidden as typed (UIKit's `isSecureTextEntry`): the `password` type. The value of a
    /// secure field is never written back into the page.
    public var isSecureTextEntry: Bool {
        get { kind == .password }
        set { kind = newValue ? .password : (kind == .password ? .text : kind) }
    }

    /// The virtual keyboard to show (`inputmode`: `numeric`, `decimal`, `email`, `search`, `url`, `tel`), or `nil`.
    public var keyboardType: String? {
        didSet { if keyboardType != oldValue { setNeedsRender() } }
    }

    /// A text input's, then its ``kind`` (`type`, one of ``Kind``) and ``keyboardType`` (`inputmode`).
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let type = element.attribute("type")?.lowercased() ?? "text"
        let base = try super.templateConfiguration(from: element)
        guard let kind = Kind(rawValue: type) else {
            throw element.error("a TextField's type is one of \(Kind.allCases.map(\.rawValue)), not '\(type)'")
        }
        let keyboardType = element.attribute("inputmode")
        return base?.followed(
            by: TemplateConfiguration(TextField.self) { field in
                field.kind = kind
                field.keyboardType = keyboardType
            })
    }

    /// An `<input>` with an outlet, other than a checkbox or a file input.
    override class func isInferred(from element: TemplateElement) -> Bool {
        let type = element.attribute("type")?.lowercased()
        return element.tagName == "input" && element.outlet != nil && type != "checkbox" && type != "file"
    }

    override func check(_ value: String) throws(FieldInputError) {
        if kind == .number, !value.isEmpty, Double(value) == nil {
            throw FieldInputError("“\(name)” is a number field; “\(value.prefix(40))” is not a number.")
        }
        try super.check(value)
    }

    override func renderControl(
        into html: inout HTMLBuffer, context: RenderContext, controlID: String, errorID: String?
    ) {
        html.appendStatic("<input")
        writeControlAttributes(into: &html, controlID: controlID, errorID: errorID)
        html.appendAttribute(static: "type", kind.rawValue)
        if kind != .password { html.appendAttribute(static: "value", text) }
        if !placeholder.isEmpty { html.appendAttribute(static: "placeholder", placeholder) }
        if let keyboardType { html.appendAttribute(static: "inputmode", keyboardType) }
        html.append(UInt8(ascii: ">"))
    }
}

/// A multi-line text input (like `UITextView`), rendered as a `<textarea>` inside its ``Field`` wrapper.
public final class TextView: TextInput {
    /// The text is the element's content (a newline right after the start tag is not part of it, as in HTML).
    override class func templateText(of element: TemplateElement) -> String {
        let content = element.textContent
        return content.hasPrefix("\n") ? String(content.dropFirst()) : content
    }

    /// A `<textarea>` with an outlet.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.tagName == "textarea" && element.outlet != nil
    }

    override func renderControl(
        into html: inout HTMLBuffer, context: RenderContext, controlID: String, errorID: String?
    ) {
        html.appendStatic("<textarea")
        writeControlAttributes(into: &html, controlID: controlID, errorID: errorID)
        if !placeholder.isEmpty { html.appendAttribute(static: "placeholder", placeholder) }
        html.append(UInt8(ascii: ">"))
        // A newline right after the start tag is dropped by HTML parsers: one more keeps a leading newline.
        if text.utf8.first == 0x0A { html.append(0x0A) }
        html.appendText(text)
        html.appendStatic("</textarea>")
    }
}

/// An on/off control (like `UISwitch`), rendered as a checkbox with its label after it.
public final class Switch: Field {
    /// Whether the switch is on; setting a different value renders it.
    public var isOn = false {
        didSet { if !isApplyingInput && isOn != oldValue { setNeedsRender() } }
    }

    override var valueEvent: ControlEvents { .valueChanged }
    override var labelFollowsControl: Bool { true }

    /// A field's, then `checked` for ``isOn``.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let isOn = element.hasAttribute("checked")
        return try super.templateConfiguration(from: element)?.followed(
            by: TemplateConfiguration(Switch.self) { $0.isOn = isOn })
    }

    /// An `<input type="checkbox">` with an outlet.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.tagName == "input" && element.outlet != nil && element.attribute("type")?.lowercased() == "checkbox"
    }

    override func check(_ value: String) throws(FieldInputError) {
        guard value == "on" || value.isEmpty || value == "off" else {
            throw FieldInputError("“\(name)” is a switch: its value is “on” or nothing, not “\(value.prefix(40))”.")
        }
    }

    override func acceptInput(_ value: String?) -> Bool {
        let newValue = value == "on"
        guard newValue != isOn else { return false }
        withoutRendering { isOn = newValue }
        return true
    }

    public override var formValue: String? { isOn ? "on" : nil }

    override func renderControl(
        into html: inout HTMLBuffer, context: RenderContext, controlID: String, errorID: String?
    ) {
        html.appendStatic("<input")
        writeControlAttributes(into: &html, controlID: controlID, errorID: errorID)
        html.appendStatic(isOn ? " type=\"checkbox\" checked>" : " type=\"checkbox\">")
    }
}

/// A choice among options (like a menu or `UIPickerView`), rendered as a `<select>`.
///
/// A template's `<option>` elements give the first options: `<select data-outlet="genre" data-label="Genre">
/// <option value="">Any</option><option>Drama</option></select>`.
public final class Picker: Field {
    /// One choice: the value posted, and the text shown.
    public struct Option: Sendable, Equatable {
        public var value: String
        public var title: String

        public init(value: String, title: String) {
            self.value = value
            self.title = title
        }
    }

    /// The choices, in order.
    public var options: [Option] = [] {
        didSet {
            guard options != oldValue else { return }
            if let selectedIndex, selectedIndex >= options.count { self.selectedIndex = options.isEmpty ? nil : 0 }
            setNeedsRender()
        }
    }

    /// The index of the chosen option, or `nil`.
    public var selectedIndex: Int? {
        didSet { if !isApplyingInput && selectedIndex != oldValue { setNeedsRender() } }
    }

    /// The value of the chosen option; setting a value no option has chooses none.
    public var selectedValue: String? {
        get { selectedIndex.flatMap { options.indices.contains($0) ? options[$0].value : nil } }
        set { selectedIndex = newValue.flatMap { value in options.firstIndex { $0.value == value } } }
    }

    override var valueEvent: ControlEvents { .valueChanged }

    /// A field's, then the ``options`` from the `<option>` children (their `value`, else their text) and the one
    /// that says `selected` (else the first).
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        var options: [Option] = []
        var selectedIndex: Int?
        for option in element.childElements where option.tagName == "option" {
            let title = option.text
            if option.hasAttribute("selected") { selectedIndex = options.count }
            options.append(Option(value: option.attribute("value") ?? title, title: title))
        }
        if selectedIndex == nil && !options.isEmpty { selectedIndex = 0 }
        return try super.templateConfiguration(from: element)?.followed(
            by: TemplateConfiguration(Picker.self) { [options, selectedIndex] picker in
                picker.options = options
                picker.selectedIndex = selectedIndex
            })
    }

    /// A `<select>` with an outlet.
    override class func isInferred(from element: TemplateElement) -> Bool {
        element.tagName == "select" && element.outlet != nil
    }

    override func check(_ value: String) throws(FieldInputError) {
        guard options.contains(where: { $0.value == value }) else {
            throw FieldInputError("“\(name)” has no option “\(value.prefix(40))”.")
        }
    }

    override func acceptInput(_ value: String?) -> Bool {
        let index = value.flatMap { value in options.firstIndex { $0.value == value } }
        guard index != selectedIndex else { return false }
        withoutRendering { selectedIndex = index }
        return true
    }

    public override var formValue: String? { selectedValue }

    override func renderControl(
        into html: inout HTMLBuffer, context: RenderContext, controlID: String, errorID: String?
    ) {
        html.appendStatic("<select")
        writeControlAttributes(into: &html, controlID: controlID, errorID: errorID)
        html.append(UInt8(ascii: ">"))
        for (index, option) in options.enumerated() {
            html.appendStatic("<option")
            html.appendAttribute(static: "value", option.value)
            if index == selectedIndex { html.appendStatic(" selected") }
            html.append(UInt8(ascii: ">"))
            html.appendText(option.title)
            html.appendStatic("</option>")
        }
        html.appendStatic("</select>")
    }
}
