/// The `rx` namespace: extensions on `Reactive where Base: SomeView` add reactive properties
/// (`rx.tap`, `rx.text`) to a type without cluttering it, as in RxSwift.
///
/// ```swift
/// extension Reactive where Base: Button {
///     public var tap: ControlEvent<Void> { ControlEvent(events: base.taps) }
/// }
/// ```
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended object.
    public let base: Base

    /// Wraps `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder for any writable property of a class: `label.rx.isHidden`.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property>
    where Base: AnyObject {
        Binder(base) { base, value in base[keyPath: keyPath] = value }
    }
}

/// Types that have an `rx` namespace.
public protocol ReactiveCompatible {
    /// The type extended.
    associatedtype ReactiveBase

    /// The `rx` namespace of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The `rx` namespace of this instance.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The `rx` namespace of the type.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Setting is allowed so that `rx` properties can be mutating; it has no effect.
        // swift-format-ignore
        set {}
    }

    /// The `rx` namespace of this instance.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // swift-format-ignore
        set {}
    }
}
