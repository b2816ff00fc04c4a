package import ViewKit

/// How a screen is put together, the one way for a served page and for `ScreenHarness`: the templates loaded with
/// the framework's head markup and built-in screens, the layout checked for its `content` outlet, the factory run with
/// the templates in scope, the ``Screen`` built around its view controller, and the layout's sign-in outlets filled
/// for the browser's user.
///
/// Contract: ``makeScreen(request:backURL:sessionID:csrfToken:signIn:factory:)`` runs on the new screen's scheduler;
/// it throws what the factory throws, untouched (the caller names the failure), and nothing after the factory throws.
package struct ScreenAssembly: Sendable {
    /// The templates every screen of the application is built from.
    package let templates: TemplateLibrary
    /// The page shell, checked to have its `content` outlet.
    package let layout: Template
    /// The client version a page names on `<html>` (`data-client`).
    package let clientVersion: String
    /// How many events a screen keeps for a page that reconnects.
    package let eventBuffer: Int

    /// Loads the templates under `directory` with the framework's `<head>` markup (`clientHead`) and built-in
    /// screens, and checks the layout. Throws a ``TemplateError`` naming the file and line of a broken template.
    package init(
        templatesIn directory: String, registry: ViewRegistry, clientHead: String, clientVersion: String,
        eventBuffer: Int = 32
    ) throws {
        templates = try TemplateLibrary(
            directory: directory, registry: registry, layoutHead: clientHead, builtIns: PageLayout.builtInTemplates)
        layout = try templates.template(named: "layout")
        try layout.validate(outlets: ["content": View.self])
        self.clientVersion = clientVersion
        self.eventBuffer = eventBuffer
    }

    /// Builds a screen: the factory's view controller for `request`, inside the layout, through `viewWillAppear`,
    /// with the sign-in's outlets of the layout showing the browser's user. Call on the screen's scheduler.
    package func makeScreen(
        request: ScreenRequest, backURL: String, sessionID: String, csrfToken: String, signIn: SignIn?,
        factory: (ScreenRequest) throws -> ViewController
    ) throws -> Screen {
        let viewController = try ViewController.$screenTemplates.withValue(templates) { try factory(request) }
        let screen = Screen(
            viewController: viewController, layout: layout, templates: templates, url: request.url,
            backURL: backURL, sessionID: sessionID, csrfToken: csrfToken, eventBuffer: eventBuffer,
            isLive: request.isLive)
        screen.clientVersion = clientVersion
        if let signIn {
            signIn.decorate(screen.page, layout: layout, user: signIn.user(for: request), url: request.url)
        }
        return screen
    }
}
