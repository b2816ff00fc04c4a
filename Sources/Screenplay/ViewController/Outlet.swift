public import ViewKit

/// Declares a view controller's outlet: a view of its template marked `data-outlet="name"`.
///
/// ```swift
/// @Outlet("backButton") var backButton: Button
/// ```
///
/// Outlets are checked against the template when the screen's route is registered (start-up): a missing,
/// duplicate or mistyped outlet is an error naming the template file, line and outlet.
@propertyWrapper
public struct Outlet<V: View>: OutletDeclaration {
    /// The outlet's name in the template.
    public let name: String

    /// Declares the outlet named `name`.
    public init(_ name: String) {
        self.name = name
    }

    var viewType: View.Type { V.self }

    /// Unavailable: an outlet is read through its enclosing view controller (see the subscript below).
    @available(*, unavailable, message: "@Outlet is only available on ViewController subclasses")
    public var wrappedValue: V {
        get { fatalError("unavailable") }
        // swift-format-ignore
        set { fatalError("unavailable") }
    }

    /// Reads the outlet from the enclosing view controller's view.
    public static subscript<Controller: ViewController>(
        _enclosingInstance controller: Controller,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Controller, V>,
        storage storageKeyPath: ReferenceWritableKeyPath<Controller, Outlet<V>>
    ) -> V {
        get { controller.outlet(named: controller[keyPath: storageKeyPath].name, as: V.self) }
        // swift-format-ignore
        set {}
    }
}

/// A declared outlet, seen through `Mirror` when templates are validated.
protocol OutletDeclaration {
    var name: String { get }
    var viewType: View.Type { get }
}
