internal import HTTPServer
internal import ViewKit

/// A screen route: a path pattern and the factory that assembles the screen's view controller, driver and binder.
struct ScreenRoute: Sendable {
    let pattern: RoutePattern
    let parent: String
    /// Stands in front of the route, its sessions' posts and its rebuilds.
    let routeGuard: Guard?
    let factory: @Sendable (ScreenRequest) throws -> ViewController
    /// The view controller's type name and template, for logs and development error pages.
    let controllerName: String
    let templateName: String
    /// Checks a template library against the controller's outlets (at registration, and before a reload is applied).
    let validate: @Sendable (TemplateLibrary) throws -> Void

    init<Controller: ViewController>(
        pattern: String, parent: String, type: Controller.Type, guard routeGuard: Guard? = nil,
        factory: @escaping @Sendable (ScreenRequest) throws -> Controller
    ) {
        self.pattern = RoutePattern(pattern)
        self.parent = parent
        self.routeGuard = routeGuard
        self.factory = factory
        controllerName = "\(Controller.self)"
        templateName = Controller.templateName
        validate = { templates in
            let template = try templates.template(named: Controller.templateName)
            try template.validate(outlets: Controller.init().declaredOutlets)
        }
    }

    /// The path parameters if the still-encoded `path` matches this route's pattern (the router's matcher).
    func match(_ path: String) -> [String: String]? { pattern.match(path: path) }
}
