import Screenplay

// The names the snippets of Screenplay's "Signing in" use without declaring them: the app, its root and options,
// and a screen that shows who is signed in.

struct ScreenplaySigningInSnippets {
    let root: String
    let options: ApplicationOptions
    let app: Application
}

/// A screen that says who added each item.
final class TodoListViewController: ViewController {
    static func make(user: String) -> TodoListViewController { TodoListViewController() }
}
