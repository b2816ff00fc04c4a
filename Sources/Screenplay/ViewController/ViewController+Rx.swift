public import Reactive

extension ViewController: ReactiveCompatible {}

extension Reactive where Base: ViewController {
    /// Emits once, after `viewDidLoad`.
    public var viewDidLoad: ControlEvent<Void> { ControlEvent(events: base.lifecycle.didLoad) }
    /// Emits `animated` after `viewWillAppear(_:)`.
    public var viewWillAppear: ControlEvent<Bool> { ControlEvent(events: base.lifecycle.subject(.willAppear)) }
    /// Emits `animated` after `viewDidAppear(_:)`: the page's event stream connected.
    public var viewDidAppear: ControlEvent<Bool> { ControlEvent(events: base.lifecycle.subject(.didAppear)) }
    /// Emits `animated` after `viewWillDisappear(_:)`.
    public var viewWillDisappear: ControlEvent<Bool> { ControlEvent(events: base.lifecycle.subject(.willDisappear)) }
    /// Emits `animated` after `viewDidDisappear(_:)`.
    public var viewDidDisappear: ControlEvent<Bool> { ControlEvent(events: base.lifecycle.subject(.didDisappear)) }
}
