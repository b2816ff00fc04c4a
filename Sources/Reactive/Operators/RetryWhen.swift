import Primitives

extension ObservableType {
    /// Resubscribes to this sequence when it fails, as the sequence `notificationHandler` makes of its errors says:
    /// from the first failure on, each of its elements resubscribes, its completion completes the result and its
    /// error fails it (what it sends before that is ignored, as RxSwift's). An
    /// error of another type than `Error` fails the result at once.
    ///
    /// ```swift
    /// api.movies().retry { errors in errors.delay(.seconds(1), scheduler: scheduler) }
    /// ```
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            let errors = PublishSubject<Error>()
            let attempt = SerialDisposable()
            let serializer = Serializer<Void, Element>((), observer: observer)
            // Whether an attempt has failed.
            let hasFailed = Locked(false)
            func subscribeAttempt() {
                let subscription = SingleAssignmentDisposable()
                attempt.disposable = subscription
                subscription.setDisposable(
                    source.subscribe { event in
                        guard case .error(let error) = event else {
                            serializer.send(event)
                            return
                        }
                        guard let typed = error as? Error else {
                            serializer.send(event)
                            return
                        }
                        hasFailed.withLock { $0 = true }
                        errors.onNext(typed)
                    })
            }
            let triggers = notificationHandler(errors.asObservable()).subscribe { event in
                // As RxSwift's: the trigger is heard from the first failure on.
                guard hasFailed.withLock({ $0 }) else { return }
                switch event {
                case .next: subscribeAttempt()
                case .error(let error): serializer.send(.error(error))
                case .completed: serializer.send(.completed)
                }
            }
            subscribeAttempt()
            return Disposables.create(attempt, triggers, errors)
        }
    }
}
