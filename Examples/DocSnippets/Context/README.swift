import Screenplay
import ScreenplayTesting

// The names the snippets of README.md use without declaring them: the edit form's screen of "Forms", and the
// counter of "A screen in twenty lines" for the harness.

struct READMESnippets {
    let viewController: EditViewController
    let driver: EditDriver
    let harness: ScreenHarness
}

/// The movie edit form, as the README's "Forms" shows it.
final class EditViewController: ViewController {
    @Outlet("titleField") var titleField: TextField
    @Outlet("yearField") var yearField: TextField
    @Outlet("saveButton") var saveButton: Button
    @Outlet("posterField") var posterField: FileField
}

/// The form's state: its values and their errors.
struct EditData {
    struct Fields {
        var title: String?
        var year: String?
    }
    var form = Fields()
    var errors = Fields()
}

/// The edit screen's driver: its state and intents.
final class EditDriver {
    private let relay = BehaviorRelay(value: EditData())
    var data: Driver<EditData> { relay.asDriver() }
    func setTitle(_ title: String) {}
    func save() {}
}

/// A factory of the README's counter screen.
func makeCounter(_ request: ScreenRequest) -> ViewController {
    ViewController()
}
