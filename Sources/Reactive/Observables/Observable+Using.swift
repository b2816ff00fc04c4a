extension ObservableType {
    /// A sequence that makes a resource with `resourceFactory` for each subscriber, subscribes to the sequence
    /// `observableFactory` makes of it, and disposes the resource with the subscription (after a stop event, or on
    /// disposal); a thrown error fails the sequence (and disposes a resource already made).
    ///
    /// ```swift
    /// Observable.using({ database.openCursor() }, observableFactory: { cursor in cursor.rows() })
    /// ```
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Observable.create { observer in
            var resource: Resource?
            do {
                let made = try resourceFactory()
                resource = made
                let subscription = try observableFactory(made).subscribe(observer)
                return Disposables.create(subscription, made)
            } catch {
                resource?.dispose()
                observer.onError(error)
                return Disposables.create()
            }
        }
    }
}

extension PrimitiveSequence {
    /// A trait that makes a resource for each subscriber and disposes it with the subscription; see
    /// `ObservableType.using(_:observableFactory:)`.
    ///
    /// ```swift
    /// Single.using({ database.openCursor() }, primitiveSequenceFactory: { cursor in cursor.firstRow() })
    /// ```
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).source }))
    }
}
