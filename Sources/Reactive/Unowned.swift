/// Turns an unapplied method reference into a closure that holds `owner` unowned, so a
/// subscription stored in `owner`'s own bag does not keep it alive.
///
/// `owner` should outlive the returned closure's calls (dispose the subscription before `owner` goes away, as a bag
/// does). A call after `owner` is gone does nothing and reports a ``ProgrammerError`` naming `Owner` — the usual
/// cause is a binder that nothing keeps alive (not inserted into its view controller's bag) — instead of trapping.
///
/// ```swift
/// driver.data.drive(onNext: unowned(self, in: MovieDetailBinder.configure))
/// ```
// `@inlinable`, as its twin below: made where `Owner` and `Input` are known, the closure holds the owner and the
// method and not their types' metadata too, and the method needs no thunk of its own to be called generically
// (Benchmarks/History/54-screen-memory-8.md).
@inlinable
public func unowned<Owner: AnyObject, Input>(
    _ owner: Owner, in method: @escaping (Owner) -> (Input) -> Void
) -> (Input) -> Void {
    let held = WeakOwner(owner)
    // The call is a closure of its own that captures the method alone: where the method is a constant (a method
    // reference at the call site), the optimizer propagates it into that closure and calls the method directly,
    // instead of applying the curried reference on every call, which makes a closure object each time. It consumes
    // the owner the weak load returned, rather than retaining it again for the applied method and releasing both.
    let call: (consuming Owner, Input) -> Void = { owner, input in method(owner)(input) }
    return { input in
        guard let owner = held.owner else { return reportReleased(Owner.self) }
        call(owner, input)
    }
}

/// Turns an unapplied method reference without arguments into a closure that holds `owner`
/// unowned; it fits `onNext` of a `Void` sequence.
///
/// ```swift
/// viewController.rx.viewDidLoad.subscribe(onNext: unowned(self, in: Self.bindLoaded))
/// ```
@inlinable
public func unowned<Owner: AnyObject>(_ owner: Owner, in method: @escaping (Owner) -> () -> Void) -> () -> Void {
    let held = WeakOwner(owner)
    // As above: the method alone in a closure of its own, called directly where the method is a constant.
    let call: (consuming Owner) -> Void = { owner in method(owner)() }
    return {
        guard let owner = held.owner else { return reportReleased(Owner.self) }
        call(owner)
    }
}

/// The owner of an `unowned(_:in:)` closure, held weakly in a constant the closure captures: a `[weak owner]` capture
/// is a variable of the closure's, and every call read it with a run-time exclusivity check; a constant's weak field
/// is read without one (Benchmarks/History/78-fan-out-screens-8.md).
@usableFromInline
struct WeakOwner<Owner: AnyObject> {
    @usableFromInline weak var owner: Owner?

    @inlinable
    init(_ owner: Owner) { self.owner = owner }
}

/// Reports a call through `unowned(_:in:)` after its owner went away.
@usableFromInline
func reportReleased(_ owner: Any.Type) {
    ProgrammerErrors.report(
        ProgrammerError(
            mistake: "\(owner) was released while a subscription made with unowned(self, in:) still ran.",
            fix: "keep it alive as long as its subscriptions: insert a binder into its view controller's bag "
                + "(viewController.bag.insert(binder)), or dispose the subscriptions first."))
}
