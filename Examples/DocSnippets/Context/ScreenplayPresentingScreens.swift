import Screenplay
import ScreenplayTesting

// The names the snippets of Screenplay's "Presenting view controllers and alerts" use without declaring them: the
// presenting view controller, the movie's title, the edit screen's driver, and a harness of the edit screen.

struct ScreenplayPresentingScreensSnippets {
    let viewController: ViewController
    let title: String
    let driver: MovieDeletion
    let harness: ScreenHarness
}

/// The intent the alert's destructive action calls.
final class MovieDeletion {
    func delete() {}
}
