internal import Reactive

/// The editing events a field sends (like `UIControl.Event`): what `rx.controlEvent(_:)` observes.
public struct ControlEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The user changed the text (each debounced input event).
    public static let editingChanged = ControlEvents(rawValue: 1 << 0)
    /// The field lost the focus.
    public static let editingDidEnd = ControlEvents(rawValue: 1 << 1)
    /// The user pressed Enter in the field.
    public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 2)
    /// A switch was turned or a choice was picked.
    public static let valueChanged = ControlEvents(rawValue: 1 << 3)
    /// Every editing event.
    public static let allEditingEvents: ControlEvents = [.editingChanged, .editingDidEnd, .primaryActionTriggered]
}

/// Why a value the browser sent for a field was refused; the screen's state is left as it was.
public struct FieldInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, for the answer's body.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A form control with a name, a label and an error message: the base of ``TextField``, ``TextView``, ``Switch``
/// and ``Picker`` (as `UIControl` is of UIKit's controls).
///
/// A field renders as a `<div class="field">` holding its `<label for>`, the control and, once the user has changed
/// the field or submitted its form, the error message the binder set (with `aria-invalid` and `aria-describedby`
/// on the control):
///
/// ```html
/// <div id="v7" class="field"><label for="v7-control">Title</label><input id="v7-control" name="title"
///   type="text" value="Heat" aria-invalid="true" aria-describedby="v7-error"><p id="v7-error"
///   class="field-error">A title is required.</p></div>
/// ```
///
/// The template's attributes other than the ones a field takes (`name`, `data-label`, `value`, `disabled`…) go on
/// the control; `id` and `hidden` on the wrapper. Values the user types arrive from the page's script as input
/// events (``applyInput(_:sequence:event:)``), and with a form's post: they set the value without a patch (the
/// page shows them already) and reach the observers of `rx.text` / `rx.isOn` / `rx.selectedValue`.
public class Field: View {
    /// The name the control posts its value under; a template's `name`, or its outlet name.
    public var name = "" {
        didSet { if name != oldValue { setNeedsRender() } }
    }

    /// The text of the field's `<label>`; a template's `data-label`.
    public var label = "" {
        didSet { if !label.hasSameUTF8(as: oldValue) { setNeedsRender() } }
    }

    /// Whether the user can change the field; a disabled field renders `disabled` and refuses input.
    public var isEnabled = true {
        didSet { if isEnabled != oldValue { setNeedsRender() } }
    }

    /// The validation message the binder sets, or `nil`. It shows only once ``isTouched``.
    public var errorMessage: String? {
        didSet { if isTouched && !errorMessage.hasSameUTF8(as: oldValue) { setNeedsRender() } }
    }

    /// Whether the user has changed this field or submitted its form: errors show only then.
    public private(set) var isTouched = false

    /// The sequence number of the newest input event applied, written on the control as `data-seq`: the page's
    /// script keeps text typed after it instead of a value the server rendered before seeing that text.
    public private(set) var inputSequence = 0

    /// The longest value, in UTF-8 bytes, the field accepts from the browser (16 KiB by default).
    public var maximumValueLength = 16 * 1024

    /// Set while a value from the browser is stored: the page shows it already, so it marks nothing for rendering.
    private(set) var isApplyingInput = false

    func withoutRendering(_ body: () -> Void) {
        isApplyingInput = true
        body()
        isApplyingInput = false
    }

    /// The editing events, delivered on the screen's scheduler as the input arrives.
    let editingEvents = PublishRelay<ControlEvents>()

    /// Creates a field; its element is the `<div class="field">` wrapper, whatever `tagName` says.
    public required init(tagName: String = "div") {
        super.init(tagName: "div")
    }

    /// The attributes every field's element gives its properties; the others go on the control.
    public override class var templateAttributes: Set<String> {
        ["name", "data-label", "value", "disabled", "type", "placeholder", "inputmode", "checked"]
    }

    /// A field's content is its own (a picker's options, a text view's text).
    public override class var templateContentIsSubviews: Bool { false }

    /// What every field reads: its ``name`` (the outlet's unless `name` says), its ``label`` (`data-label`, or
    /// `aria-label` alone, one of which it needs) and `disabled`.
    public override class func templateConfiguration(from element: TemplateElement) throws(TemplateError)
        -> TemplateConfiguration?
    {
        let label = element.attribute("data-label") ?? ""
        guard !label.isEmpty || element.hasAttribute("aria-label") else {
            throw element.error(
                "a field needs a label: add data-label=\"…\" (or aria-label=\"…\" where no label shows)")
        }
        guard let name = element.attribute("name") ?? element.outlet, !name.isEmpty else {
            throw element.error("a field needs a name or a data-outlet")
        }
        let isEnabled = !element.hasAttribute("disabled")
        return TemplateConfiguration(Field.self) { field in
            field.name = name
            field.label = label
            field.isEnabled = isEnabled
        }
    }

    /// The error message shown now: set, and the field touched.
    public var visibleErrorMessage: String? {
        isTouched ? errorMessage : nil
    }

    /// Marks the field as changed by the user, so its error (if any) shows.
    public func markTouched() {
        guard !isTouched else { return }
        isTouched = true
        if errorMessage != nil { setNeedsRender() }
    }

    /// The value the control posts, or `nil` when it posts none (a switch that is off).
    public var formValue: String? { nil }

    /// Applies a value the user entered: checks it (``FieldInputError``), sets it without a patch, marks the field
    /// touched and sends `event` to `rx.controlEvent`. A `sequence` not newer than the last applied one is dropped (a
    /// post overtaken by a newer one), and so is a value for a disabled field.
    public final func applyInput(_ value: String?, sequence: Int?, event: ControlEvents) throws(FieldInputError) {
        if let value { try validateInput(value) }
        if let sequence {
            guard sequence > inputSequence else { return }
            inputSequence = sequence
        }
        guard isEnabled else { return }
        markTouched()
        if acceptInput(value) { editingEvents.accept(event.union(valueEvent)) } else { editingEvents.accept(event) }
    }

    /// Checks a value from the browser without applying it: its length, and what the field's kind accepts.
    public final func validateInput(_ value: String) throws(FieldInputError) {
        guard value.utf8.count <= maximumValueLength else {
            throw FieldInputError(
                "The value of “\(name)” is \(value.utf8.count) bytes; the limit is \(maximumValueLength).")
        }
        try check(value)
    }

    /// The events a changed value adds to an input event: `.valueChanged` for switches and choices.
    var valueEvent: ControlEvents { [] }

    /// Checks a value from the browser before anything changes; a subclass refuses what it cannot hold.
    func check(_ value: String) throws(FieldInputError) {}

    /// Sets the value from the browser without marking the field for rendering; returns whether it changed.
    func acceptInput(_ value: String?) -> Bool { false }

    /// Writes the wrapper, the label, the control and the error message.
    public final override func render(into html: inout HTMLBuffer, context: RenderContext) {
        let controlID = domID + "-control"
        let error = visibleErrorMessage
        html.appendStatic("<div")
        writeIDAttribute(into: &html)
        html.appendStatic(error == nil ? " class=\"field\"" : " class=\"field field-invalid\"")
        if isHidden { html.appendStatic(" hidden") }
        html.append(UInt8(ascii: ">"))
        if labelFollowsControl {
            renderControl(into: &html, context: context, controlID: controlID, errorID: error.map { _ in domID })
            renderLabel(into: &html, controlID: controlID)
        } else {
            renderLabel(into: &html, controlID: controlID)
            renderControl(into: &html, context: context, controlID: controlID, errorID: error.map { _ in domID })
        }
        if let error {
            html.appendStatic("<p")
            html.appendAttribute(static: "id", domID + "-error")
            html.appendStatic(" class=\"field-error\">")
            html.appendText(error)
            html.appendStatic("</p>")
        }
        html.appendStatic("</div>")
    }

    /// Whether the label comes after the control (a checkbox's does).
    var labelFollowsControl: Bool { false }

    private func renderLabel(into html: inout HTMLBuffer, controlID: String) {
        guard !label.isEmpty else { return }
        html.appendStatic("<label")
        html.appendAttribute(static: "for", controlID)
        html.append(UInt8(ascii: ">"))
        html.appendText(label)
        html.appendStatic("</label>")
    }

    /// Writes the control's element; `errorID` is the wrapper's id when an error shows.
    func renderControl(into html: inout HTMLBuffer, context: RenderContext, controlID: String, errorID: String?) {}

    /// The attributes every control writes: its id, the template's attributes, `name`, `data-seq`, `disabled` and
    /// the error's ARIA attributes.
    final func writeControlAttributes(into html: inout HTMLBuffer, controlID: String, errorID: String?) {
        html.appendAttribute(static: "id", controlID)
        writeLeadingAttributes(into: &html, includeID: false, extraClasses: [])
        html.appendAttribute(static: "name", name)
        if inputSequence > 0 { html.appendAttribute(static: "data-seq", String(inputSequence)) }
        if !isEnabled { html.appendStatic(" disabled") }
        if let errorID {
            html.appendStatic(" aria-invalid=\"true\"")
            html.appendAttribute(static: "aria-describedby", errorID + "-error")
        }
        writeTrailingAttributes(into: &html, includeHidden: false)
    }
}

extension View {
    /// The fields in this subtree, in document order.
    public var fields: [Field] {
        var found: [Field] = []
        collectFields(into: &found)
        return found
    }

    private func collectFields(into found: inout [Field]) {
        if let field = self as? Field {
            found.append(field)
            return
        }
        for subview in liveSubviews { subview.collectFields(into: &found) }
    }

    /// The first field in this subtree named `name`.
    public func field(named name: String) -> Field? {
        if let field = self as? Field { return field.name == name ? field : nil }
        for subview in liveSubviews {
            if let found = subview.field(named: name) { return found }
        }
        return nil
    }
}
