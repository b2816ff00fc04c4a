import Screenplay

// The names the snippets of ViewKit's "Templates and outlets" use without declaring them: the app's view registry.

struct ViewKitTemplatesAndOutletsSnippets {
    let registry: ViewRegistry
}
