// `import Screenplay` is all a screen author needs: the views and templates (ViewKit), the reactive types and
// traits (Reactive), and the server's configuration, requests and responses (HTTPServer) come with it.
@_exported public import HTTPServer
@_exported public import Reactive
@_exported public import ViewKit
