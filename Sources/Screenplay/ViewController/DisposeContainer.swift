public import Reactive

/// An object that owns a dispose bag, so bindings made for it live exactly as long as it does.
///
/// `ViewController` is one; the seed's `ViewControllerBinder` requires its view controller to be one.
public protocol DisposeContainer: AnyObject {
    /// The bag that holds this object's subscriptions; disposed when the screen ends.
    var bag: DisposeBag { get }
}
