internal import Foundation
internal import ViewKit

/// A screen route: a path pattern and the factory that assembles the screen's view controller, driver and binder.
struct ScreenRoute: Sendable {
    let pattern: String
    let segments: [Segment]
    let parent: String
    /// Stands in front of the route, its sessions' posts and its rebuilds.
    let routeGuard: Guard?
    let factory: @Sendable (ScreenRequest) throws -> ViewController
    /// The view controller's type name and template, for logs and development error pages.
    let controllerName: String
    let templateName: String
    /// Checks a template library against the controller's outlets (at registration, and before a reload is applied).
    let validate: @Sendable (TemplateLibrary) throws -> Void

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    init<Controller: ViewController>(
        pattern: String, parent: String, type: Controller.Type, guard routeGuard: Guard? = nil,
        factory: @escaping @Sendable (ScreenRequest) throws -> Controller
    ) {
        self.pattern = pattern
        self.parent = parent
        self.routeGuard = routeGuard
        self.factory = factory
        controllerName = "\(Controller.self)"
        templateName = Controller.templateName
        validate = { templates in
            let template = try templates.template(named: Controller.templateName)
            try template.validate(outlets: Controller.init().declaredOutlets)
        }
        segments = pattern.split(separator: "/").map { part in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
    }

    /// The path parameters if `path` matches this route's pattern.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case .literal(let literal) where literal == part: continue
            case .literal: return nil
            case .parameter(let name):
                guard let value = String(part).removingPercentEncoding else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }
}
