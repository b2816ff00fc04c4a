/// How a trait shares its source among subscribers.
public protocol SharingStrategyProtocol {
    /// Shares `source` the way this trait does.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be turned into a `SharedSequence`.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sharing strategy (`Driver` or `Signal`).
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// The sequence as a `SharedSequence`.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

/// A sequence that never fails, shares its source, and delivers on the screen scheduler of each
/// subscriber: the type behind `Driver` and `Signal`, as in RxCocoa.
///
/// "Main scheduler" in RxCocoa's contract reads here as "the scheduler of the screen that
/// subscribed": two screens driving the same `Driver` each receive its elements on their own
/// scheduler.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType {
    /// The shared source, before delivery moves onto the subscribing screen.
    @usableFromInline let source: Observable<Element>

    /// Wraps `source`, which must not fail, sharing it according to `SharingStrategy`.
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps an already shared source.
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// The sequence, delivering on the subscribing screen's scheduler (or, off any screen, on the
    /// thread that produces each element).
    public func asObservable() -> Observable<Element> {
        source.deliveredOnSubscribingScreen()
    }

    /// Returns itself.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        self
    }
}

extension SharedSequence {
    /// A trait of one element (which, for `Driver`, stays its current value).
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(.just(element))
    }

    /// A trait that completes at once.
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: .empty())
    }

    /// A trait that never sends anything.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: .never())
    }

    /// A trait of the arguments.
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(.from(elements))
    }

    /// A trait of the elements of `sequence`.
    public static func from<Source: Sequence>(_ sequence: Source) -> SharedSequence<SharingStrategy, Element>
    where Source.Element == Element {
        SharedSequence(.from(sequence))
    }

    /// A trait made anew by `factory` for each subscriber.
    public static func deferred(_ factory: @escaping () -> SharedSequence<SharingStrategy, Element>)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.deferred { factory().source })
    }
}
