public import Reactive

extension View: ReactiveCompatible {}

extension Reactive where Base: View {
    /// Binds `isHidden`: `driver.map(\.isLoaded).drive(spinner.rx.isHidden)`.
    public var isHidden: Binder<Bool> {
        Binder(base) { view, isHidden in view.isHidden = isHidden }
    }

    /// Binds `accessibilityLabel`.
    public var accessibilityLabel: Binder<String?> {
        Binder(base) { view, label in view.accessibilityLabel = label }
    }

    /// Binds whether the class `name` is in the class list: `isSelected.drive(row.rx.hasClass("selected"))`.
    public func hasClass(_ name: String) -> Binder<Bool> {
        Binder(base) { view, isOn in view.classList.set(name, isOn) }
    }
}

extension Reactive where Base: Label {
    /// Binds `text` (`nil` shows no text), like RxCocoa's `UILabel.rx.text`; sources of `String`
    /// and `String?` both bind: `driver.map(\.title).drive(titleLabel.rx.text)`.
    public var text: Binder<String?> {
        Binder(base) { label, text in label.text = text ?? "" }
    }
}

extension Reactive where Base: Button {
    /// The button's taps, as RxCocoa's `ControlEvent`: never fails, replays nothing, and delivers
    /// on the screen scheduler that calls `sendActions()`.
    ///
    /// ```swift
    /// viewController.backButton.rx.tap.bind(onNext: driver.close)
    /// ```
    public var tap: ControlEvent<Void> {
        ControlEvent(events: base.taps)
    }

    /// Binds `title`.
    public var title: Binder<String> {
        Binder(base) { button, title in button.title = title }
    }

    /// Binds `isEnabled`.
    public var isEnabled: Binder<Bool> {
        Binder(base) { button, isEnabled in button.isEnabled = isEnabled }
    }
}

extension Reactive where Base: ImageView {
    /// Binds the image address; `nil` (or a URL that is not http(s) or site-relative) shows the
    /// placeholder.
    public var imageURL: Binder<String?> {
        Binder(base) { imageView, url in imageView.imageURL = url }
    }
}

extension Reactive where Base: ListView {
    /// Binds the list's items: each element updates the rows as `ListView.update` does.
    ///
    /// ```swift
    /// driver.map(\.tips).drive(tipsView.rx.items(id: \.id, makeRow: { _ in TipRow() }) { row, tip in
    ///     (row as? TipRow)?.configure(with: tip)
    /// })
    /// ```
    public func items<Item, ID: Hashable>(
        id: @escaping (Item) -> ID, makeRow: @escaping (Item) -> View,
        configureRow: @escaping (View, Item) -> Void
    ) -> Binder<[Item]> {
        Binder(base) { list, items in list.update(with: items, id: id, makeRow: makeRow, configureRow: configureRow) }
    }
}
