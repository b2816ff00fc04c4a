/// The page shell a screen is shown in when an app has no `Templates/layout.html`, and the other templates the
/// framework brings.
///
/// The default layout has a title, an account bar (shown by a sign-in: ``SignIn``), the `navigationBar`, `notice`
/// and `content` outlets, and a live region for announcements. An app's own `layout.html` replaces it; copy it as a
/// start.
public enum PageLayout {
    /// The default layout's markup.
    public static let defaultSource = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title data-outlet="title" data-view="Label">Screenplay</title>
        </head>
        <body>
        <nav class="account-bar" aria-label="Account" data-outlet="account" hidden><span data-outlet="signedIn" hidden>Signed \
        in as <strong data-outlet="userName" data-view="Label"></strong> · <a href="/signout">Sign out</a></span><a \
        data-outlet="signInLink" href="/signin">Sign in</a></nav>
        <header class="navigation-bar" data-outlet="navigationBar"></header>
        <p class="notice" role="status" data-outlet="notice"></p>
        <main class="content" data-outlet="content"></main>
        <div class="visually-hidden" aria-live="polite" data-announcer></div>
        </body>
        </html>
        """

    /// The templates the framework brings, each used where the app has no file of that name: the default layout
    /// and the sign-in screens'.
    package static let builtInTemplates: [String: String] = SignIn.templates.merging(["layout": defaultSource]) {
        app, _ in app
    }
}
