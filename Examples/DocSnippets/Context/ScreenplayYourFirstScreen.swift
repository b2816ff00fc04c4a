// The snippets of Screenplay's "Your first screen" declare all they use.

struct ScreenplayYourFirstScreenSnippets {}
