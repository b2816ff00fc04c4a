extension ObservableType {
    /// Maps each element to a sequence and merges them all; completes when this sequence and every
    /// inner sequence have completed, fails on the first error.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element>
    {
        let source = asObservable()
        return Observable.create { observer in
            let group = CompositeDisposable()
            // Live sequences: the outer one plus every inner one.
            let serializer = Serializer<Int, Source.Element>(1, observer: observer)
            func finishOne() {
                serializer.update { active, outbox in
                    active -= 1
                    if active == 0 { outbox.send(.completed) }
                }
            }
            let outer = source.subscribe { event in
                switch event {
                case .next(let element):
                    let inner: Observable<Source.Element>
                    do { inner = try selector(element).asObservable() } catch {
                        serializer.send(.error(error))
                        return
                    }
                    serializer.update { active, _ in active += 1 }
                    let subscription = SingleAssignmentDisposable()
                    guard let key = group.insert(subscription) else { return }
                    subscription.setDisposable(
                        inner.subscribe { event in
                            switch event {
                            case .next: serializer.send(event)
                            case .error: serializer.send(event)
                            case .completed:
                                group.remove(for: key)
                                finishOne()
                            }
                        })
                case .error:
                    serializer.send(.error(event.error!))
                case .completed:
                    finishOne()
                }
            }
            group.insert(outer)
            return group
        }
    }
}
