extension Observable {
    /// A sequence of one element, then completed.
    public static func just(_ element: Element) -> Observable<Element> {
        create { observer in
            observer.onNext(element)
            observer.onCompleted()
            return Disposables.create()
        }
    }

    /// A sequence of the arguments, then completed.
    public static func of(_ elements: Element...) -> Observable<Element> {
        from(elements)
    }

    /// A sequence of the elements of `sequence`, then completed. Stops early when disposed.
    public static func from<Source: Sequence>(_ sequence: Source) -> Observable<Element>
    where Source.Element == Element {
        SequenceObservable(sequence)
    }

    /// A sequence that completes at once.
    public static func empty() -> Observable<Element> {
        create { observer in
            observer.onCompleted()
            return Disposables.create()
        }
    }

    /// A sequence that never sends anything.
    public static func never() -> Observable<Element> {
        create { _ in Disposables.create() }
    }

    /// A sequence that fails at once with `error`.
    public static func error(_ error: any Error) -> Observable<Element> {
        create { observer in
            observer.onError(error)
            return Disposables.create()
        }
    }

    /// A sequence made anew by `factory` for each subscriber; a thrown error becomes an error
    /// event.
    public static func deferred(_ factory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        create { observer in
            do {
                return try factory().subscribe(observer)
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
        }
    }
}

/// Emits a sequence synchronously, stopping as soon as the subscriber disposes.
final class SequenceObservable<Source: Sequence>: Observable<Source.Element> {
    private let sequence: Source

    init(_ sequence: Source) {
        self.sequence = sequence
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let sink = AnonymousSink(observer)
        let sequence = self.sequence
        Trampoline.schedule {
            for element in sequence {
                if sink.isStoppedOrDisposed { return }
                sink.on(.next(element))
            }
            sink.on(.completed)
        }
        return sink
    }
}
