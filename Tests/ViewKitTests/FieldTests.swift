import Reactive
import Testing
import ViewKit

@Suite("Fields: values from the browser, rx bindings, rendering")
struct FieldTests {
    @Test("rx.text sends the current text, then each edit of the user's; binding to it sends no edit")
    func textFieldTextIsTwoWay() throws {
        let field = TextField()
        field.name = "title"
        field.text = "Heat"
        var seen: [String?] = []
        let bag = DisposeBag()
        field.rx.text.subscribe(onNext: { seen.append($0) }).disposed(by: bag)
        try field.applyInput("Heat 2", sequence: 1, event: .editingChanged)
        Observable.just("Ronin").bind(to: field.rx.text).disposed(by: bag)
        try field.applyInput("Ronin!", sequence: 2, event: .editingChanged)
        #expect(seen == ["Heat", "Heat 2", "Ronin!"])
        #expect(field.text == "Ronin!")
    }

    @Test("a value is checked before anything changes: too long, not a number, not an option")
    func refusedValuesChangeNothing() throws {
        let field = TextField()
        field.name = "year"
        field.kind = .number
        field.maximumValueLength = 8
        #expect(throws: FieldInputError.self) { try field.applyInput("nineteen", sequence: 1, event: .editingChanged) }
        #expect(throws: FieldInputError.self) { try field.applyInput("123456789", sequence: 2, event: .editingChanged) }
        try field.applyInput("-12.5", sequence: 3, event: .editingChanged)
        #expect(field.text == "-12.5")
        #expect(field.inputSequence == 3)
        // Older sequence numbers are dropped.
        try field.applyInput("1", sequence: 2, event: .editingChanged)
        #expect(field.text == "-12.5")
        let picker = Picker()
        picker.options = [.init(value: "a", title: "A")]
        #expect(throws: FieldInputError.self) { try picker.applyInput("b", sequence: 1, event: .valueChanged) }
        let toggle = Switch()
        #expect(throws: FieldInputError.self) { try toggle.applyInput("yes", sequence: 1, event: .valueChanged) }
        try toggle.applyInput("on", sequence: 2, event: .valueChanged)
        #expect(toggle.isOn)
    }

    @Test("input from the browser renders nothing; a value set by the server renders the field")
    func inputDoesNotMarkTheFieldDirty() throws {
        let root = View()
        let field = TextField()
        field.name = "q"
        root.addSubview(field)
        _ = root.renderHTML(context: RenderContext())
        _ = root.takeChanges(context: RenderContext())
        try field.applyInput("salt", sequence: 1, event: .editingChanged)
        #expect(root.takeChanges(context: RenderContext()).isEmpty)
        field.text = ""
        #expect(root.takeChanges(context: RenderContext()).count == 1)
    }

    @Test("templates make fields of inputs, textareas and selects, and refuse a field without a label")
    func templatesMakeFields() throws {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates([
                "Good.html": """
                <form data-outlet="form" data-action="save">
                <input data-outlet="title" data-label="Title" value="Heat" placeholder="Name">
                <input data-outlet="year" type="number" data-label="Year" disabled>
                <input data-outlet="done" type="checkbox" data-label="Done" checked>
                <textarea data-outlet="notes" name="body" data-label="Notes">
                Line</textarea>
                <select data-outlet="room" data-label="Room"><option value="k">Kitchen</option><option selected>Hall</option></select>
                </form>
                """
            ]), registry: Fixtures.registry())
        let view = try library.template(named: "Good").instantiate()
        let title: TextField = view.outlet("title")
        #expect(title.text == "Heat" && title.placeholder == "Name" && title.name == "title" && title.label == "Title")
        let year: TextField = view.outlet("year")
        #expect(year.kind == .number && !year.isEnabled)
        let done: Switch = view.outlet("done")
        #expect(done.isOn)
        let notes: TextView = view.outlet("notes")
        #expect(notes.name == "body" && notes.text == "Line")
        let room: Picker = view.outlet("room")
        #expect(room.selectedValue == "Hall" && room.options.count == 2)
        let form = try #require(view as? Form)
        #expect(form.defaultAction == "save")
        #expect(form.fields.map(\.name) == ["title", "year", "done", "body", "room"])
        for bad in [
            "<div><input data-outlet=\"x\"></div>", "<input data-outlet=\"x\" type=\"radio\" data-label=\"X\">",
        ] {
            let directory = try Fixtures.temporaryTemplates(["Bad.html": bad])
            #expect(throws: TemplateError.self) {
                try TemplateLibrary(directory: directory, registry: Fixtures.registry())
            }
        }
    }
}
