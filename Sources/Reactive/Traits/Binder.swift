/// An observer that sets something on a target object, with RxCocoa's contract: it holds the
/// target weakly (elements after the target is released are dropped), it never accepts errors
/// (an error is a programmer error), and it delivers on the target's screen scheduler.
///
/// The scheduler defaults to the one current where the binder is created (synchronously when an
/// element arrives there with nothing queued, by hopping otherwise). A binder created off any
/// screen delivers on the sending thread.
///
/// ```swift
/// extension Reactive where Base: Label {
///     public var text: Binder<String> { Binder(base) { label, text in label.text = text } }
/// }
/// driver.title.drive(label.rx.text)
/// ```
public struct Binder<Value>: ObserverType {
    private let binding: (Event<Value>) -> Void

    /// Creates a binder that calls `binding` with `target` and each element.
    public init<Target: AnyObject>(
        _ target: Target,
        scheduler: ScreenScheduler? = ScreenScheduler.current,
        binding: @escaping (Target, Value) -> Void
    ) {
        let deliver: (Value) -> Void = { [weak target] value in
            guard let target else { return }
            binding(target, value)
        }
        let hop = scheduler.map(ScreenHopBox.init)
        self.binding = { event in
            switch event {
            case .next(let element):
                if let hop { hop.run { deliver(element) } } else { deliver(element) }
            case .error(let error):
                reportBindingError(error)
            case .completed:
                break
            }
        }
    }

    /// Binds `next` elements; ignores `completed`.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// The binder as an `AnyObserver`.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
