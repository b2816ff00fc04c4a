public import Reactive

extension Reactive where Base: Field {
    /// The field's editing events of the kinds `events` names, as RxCocoa's `controlEvent(_:)`: never fails,
    /// replays nothing, delivers on the screen's scheduler as the input arrives.
    ///
    /// ```swift
    /// viewController.newItemField.rx.controlEvent(.primaryActionTriggered).bind(onNext: driver.add)
    /// ```
    public func controlEvent(_ events: ControlEvents) -> ControlEvent<Void> {
        ControlEvent(events: base.editingEvents.filter { !$0.isDisjoint(with: events) }.map { _ in () })
    }

    /// The error message shown under the field once it is touched; `nil` shows none.
    public var errorMessage: Binder<String?> {
        Binder(base) { field, message in field.errorMessage = message }
    }

    /// Binds `isEnabled`.
    public var isEnabled: Binder<Bool> {
        Binder(base) { field, isEnabled in field.isEnabled = isEnabled }
    }

    /// A control property over `value`: its current value on subscription, then the value after each edit of
    /// the user's; binding to it sets the value (and sends no edit, as in RxCocoa).
    fileprivate func property<Value>(
        _ value: @escaping (Base) -> Value, set: @escaping (Base, Value) -> Void, edits: ControlEvents
    ) -> ControlProperty<Value> {
        let field = base
        let values = Observable<Value>.deferred { [weak field] in
            guard let field else { return .empty() }
            return Observable.just(value(field)).concat(
                field.editingEvents.filter { !$0.isDisjoint(with: edits) }.compactMap { [weak field] _ in
                    field.map(value)
                })
        }
        return ControlProperty(values: values, valueSink: Binder(field, binding: set))
    }
}

extension Reactive where Base: TextInput {
    /// The text, two-way, as RxCocoa's `UITextField.rx.text` and `UITextView.rx.text`: the text now, then after every edit the user makes
    /// (each input event, and a form's post); binding a `Driver` to it sets the text from the server.
    ///
    /// ```swift
    /// driver.title.drive(titleField.rx.text)
    /// titleField.rx.text.orEmpty.bind(to: driver.titleInput)
    /// ```
    public var text: ControlProperty<String?> {
        property({ $0.text }, set: { $0.text = $1 ?? "" }, edits: .allEditingEvents.union(.valueChanged))
    }

    /// Binds `placeholder`.
    public var placeholder: Binder<String> {
        Binder(base) { field, placeholder in field.placeholder = placeholder }
    }
}

extension Reactive where Base: Switch {
    /// Whether the switch is on, two-way, as `UISwitch.rx.isOn`.
    public var isOn: ControlProperty<Bool> {
        property({ $0.isOn }, set: { $0.isOn = $1 }, edits: .valueChanged)
    }

    /// Whether the switch is on, two-way (RxCocoa's name for `isOn` on `UIControl`s).
    public var value: ControlProperty<Bool> { isOn }
}

extension Reactive where Base: Picker {
    /// The index of the chosen option, two-way.
    public var selectedIndex: ControlProperty<Int?> {
        property({ $0.selectedIndex }, set: { $0.selectedIndex = $1 }, edits: .valueChanged)
    }

    /// The value of the chosen option, two-way.
    public var selectedValue: ControlProperty<String?> {
        property({ $0.selectedValue }, set: { $0.selectedValue = $1 }, edits: .valueChanged)
    }

    /// Binds the options.
    public var options: Binder<[Picker.Option]> {
        Binder(base) { picker, options in picker.options = options }
    }
}

extension Reactive where Base: FileField {
    /// What happens to the field's uploads: started, progress, finished (with the file), failed. Never fails,
    /// replays nothing, delivers on the screen's scheduler.
    ///
    /// ```swift
    /// viewController.posterField.rx.file.bind(onNext: driver.posterEvent)
    /// ```
    public var file: ControlEvent<FileEvent> {
        ControlEvent(events: base.fileEvents.asObservable())
    }
}
