import Foundation
import ScreenplayTesting
import Testing
import ViewKit

@Suite struct ViewKindSnapshotTests {
    @Test func label() {
        let label = Label(text: "Heat <1995> & \"more\"", tagName: "h1")
        assertSnapshot(of: label, as: .html, named: "text")
        label.text = ""
        label.isHidden = true
        assertSnapshot(of: label, as: .html, named: "emptyHidden")
    }

    @Test func button() {
        let button = Button(title: "Back", actionName: "close")
        button.classList.insert("back")
        button.accessibilityLabel = "Back to the list"
        let context = RenderContext(
            actionPath: { "/screens/s1/actions/" + $0 }, hiddenFormFields: [("csrf", "t0k\"en")])
        assertSnapshot(of: button, as: .html(context: context), named: "enabled")
        button.isEnabled = false
        assertSnapshot(of: button, as: .html(context: context), named: "disabled")
        button.isHidden = true
        assertSnapshot(of: button, as: .html(context: context), named: "hidden")
    }

    @Test func textField() throws {
        let field = TextField()
        field.name = "title"
        field.label = "Title <required>"
        field.placeholder = "Heat"
        field.text = "Heat \"1995\" & <more>"
        assertSnapshot(of: field, as: .html, named: "filled")
        field.errorMessage = "The title must be 1 to 200 characters."
        assertSnapshot(of: field, as: .html, named: "errorNotTouched")
        try field.applyInput("", sequence: 4, event: .editingChanged)
        assertSnapshot(of: field, as: .html, named: "errorTouched")
        field.kind = .password
        field.isEnabled = false
        assertSnapshot(of: field, as: .html, named: "secureDisabled")
    }

    @Test func textViewSwitchAndPicker() {
        let text = TextView()
        text.name = "overview"
        text.label = "Overview"
        text.text = "\nStarts with a line break </textarea> <b>"
        assertSnapshot(of: text, as: .html, named: "textView")
        let toggle = Switch()
        toggle.name = "urgent"
        toggle.label = "Urgent"
        toggle.isOn = true
        assertSnapshot(of: toggle, as: .html, named: "switchOn")
        let picker = Picker()
        picker.name = "room"
        picker.label = "Room"
        picker.options = [.init(value: "", title: "Anywhere"), .init(value: "k&n", title: "Kitchen <1>")]
        picker.selectedValue = "k&n"
        assertSnapshot(of: picker, as: .html, named: "picker")
    }

    @Test func formWithButtonsAndRows() {
        let form = Form()
        let field = TextField()
        field.name = "chore"
        field.label = "Chore"
        form.addSubview(field)
        form.addSubview(Button(title: "Add", actionName: "add"))
        form.addSubview(Button(title: "Clear", actionName: "clear"))
        let context = RenderContext(actionPath: { "/screens/s1/actions/" + $0 }, hiddenFormFields: [("csrf", "tok")])
        assertSnapshot(of: form, as: .html(context: context), named: "form")
        let list = ListView()
        list.update(with: ["a b", "c/d"], id: { $0 }, makeRow: { _ in Button(title: "Done", actionName: "done") }) {
            _, _ in
        }
        assertSnapshot(of: list, as: .html(context: context), named: "rowButtons")
    }

    @Test func imageView() {
        let image = ImageView()
        image.alternativeText = "Poster of Heat"
        assertSnapshot(of: image, as: .html, named: "empty")
        image.placeholder = "/images/poster.svg"
        assertSnapshot(of: image, as: .html, named: "placeholder")
        image.imageURL = "https://images.example.com/heat.jpg?w=300&h=450"
        assertSnapshot(of: image, as: .html, named: "loaded")
        image.imageURL = "javascript:alert(1)"
        assertSnapshot(of: image, as: .html, named: "rejectedSource")
    }

    @Test func stackView() {
        let stack = StackView()
        stack.addSubview(Label(text: "One"))
        stack.addSubview(Label(text: "Two"))
        assertSnapshot(of: stack, as: .html, named: "vertical")
        stack.axis = .horizontal
        stack.spacing = 12
        assertSnapshot(of: stack, as: .html, named: "horizontal")
    }

    @Test func listView() {
        let list = ListView()
        list.classList.insert("cast")
        list.update(with: ["Pacino", "De Niro"], id: { $0 }, makeRow: { _ in Label(tagName: "li") }) { row, name in
            (row as! Label).text = name
        }
        assertSnapshot(of: list, as: .html, named: "rows")
        list.removeAllRows()
        assertSnapshot(of: list, as: .html, named: "empty")
    }

    @Test func composedScreen() {
        let screen = View(tagName: "article")
        let header = StackView(tagName: "header")
        header.addSubview(Label(text: "Heat", tagName: "h1"))
        header.addSubview(Button(title: "Back", actionName: "close"))
        screen.addSubview(header)
        let poster = ImageView()
        poster.alternativeText = "Poster"
        loadImage(with: URL(string: "/posters/heat.jpg")!, into: poster)
        screen.addSubview(poster)
        assertSnapshot(of: screen, as: .html)
    }
}
