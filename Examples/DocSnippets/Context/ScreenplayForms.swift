import Screenplay
import ScreenplayTesting

// The names the snippets of Screenplay's "Forms" use without declaring them: a binder's view controller, its
// driver and the form's state, and a harness of a screen with a list whose rows have a Done button.

struct ScreenplayFormsSnippets {
    struct Values {
        var year: String?
    }
    let viewController: EditViewController
    let driver: YearDriver
    let form: Driver<Values>
    let errors: Driver<Values>
    let harness: ScreenHarness
}

/// The intents the "Forms" binder calls.
final class YearDriver {
    func setYear(_ year: String) {}
    func save() {}
}
