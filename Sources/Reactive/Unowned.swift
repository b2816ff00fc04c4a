/// Turns an unapplied method reference into a closure that holds `owner` unowned, so a
/// subscription stored in `owner`'s own bag does not keep it alive.
///
/// Precondition: `owner` outlives the returned closure's calls (dispose the subscription before
/// `owner` goes away, as a bag does).
///
/// ```swift
/// driver.data.drive(onNext: unowned(self, in: MovieDetailBinder.configure))
/// ```
public func unowned<Owner: AnyObject, Input>(
    _ owner: Owner, in method: @escaping (Owner) -> (Input) -> Void
) -> (Input) -> Void {
    { [unowned owner] input in method(owner)(input) }
}

/// Turns an unapplied method reference without arguments into a closure that holds `owner`
/// unowned; it fits `onNext` of a `Void` sequence.
///
/// ```swift
/// viewController.rx.viewDidLoad.subscribe(onNext: unowned(self, in: Self.bindLoaded))
/// ```
public func unowned<Owner: AnyObject>(_ owner: Owner, in method: @escaping (Owner) -> () -> Void) -> () -> Void {
    { [unowned owner] in method(owner)() }
}
