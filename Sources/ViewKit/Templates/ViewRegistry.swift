import Primitives
internal import Reactive

/// The view classes templates can name with `data-view`, like custom classes in Interface Builder.
///
/// `View`, `Label`, `Button`, `ImageView`, `StackView`, `ListView`, `TextField`, `TextView`, `Switch`, `Picker` and
/// `Form` are registered under their
/// own names. Register custom views before loading templates; a template naming an unknown class
/// fails to load.
///
/// ```swift
/// let registry = ViewRegistry()
/// registry.register(MovieHeaderView.self, as: "MovieHeaderView")
/// let library = try TemplateLibrary(directory: "Templates", registry: registry)
/// ```
public final class ViewRegistry: Sendable {
    private let types: Locked<[String: View.Type]>

    /// Creates a registry holding the built-in views.
    public init() {
        var builtIn: [String: View.Type] = [:]
        for type: View.Type in [
            View.self, Label.self, Button.self, ImageView.self, StackView.self, ListView.self, TextField.self,
            TextView.self, Switch.self, Picker.self, Form.self,
        ] {
            builtIn[String(describing: type)] = type
        }
        types = Locked(builtIn)
    }

    /// Makes `type` available to templates as `data-view="name"`.
    public func register(_ type: View.Type, as name: String) {
        types.withLock { $0[name] = type }
    }

    /// The class registered as `name`.
    func type(named name: String) -> View.Type? {
        types.withLock { $0[name] }
    }
}
