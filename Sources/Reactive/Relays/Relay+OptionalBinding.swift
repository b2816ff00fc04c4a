// RxCocoa's and RxRelay's overloads that bind a sequence of `Element` into relays of `Element?`
// (each element accepted wrapped in an optional), plus the `ReplayRelay` forms the other relays
// already have.

extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// Accepts every element, as an optional, into `relays`, on the calling screen (off a screen,
    /// nothing: a ``ProgrammerError`` is reported).
    ///
    /// ```swift
    /// let selection = BehaviorRelay<Movie?>(value: nil)
    /// driver.movie.drive(selection)  // `driver.movie` is a `Driver<Movie>`
    /// ```
    public func drive(_ relays: BehaviorRelay<Element?>...) -> any Disposable {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element, as an optional, into `relays`, on the calling screen.
    public func drive(_ relays: PublishRelay<Element?>...) -> any Disposable {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element into `relays`, on the calling screen.
    public func drive(_ relays: ReplayRelay<Element>...) -> any Disposable {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element, as an optional, into `relays`, on the calling screen.
    public func drive(_ relays: ReplayRelay<Element?>...) -> any Disposable {
        guard mayDeliverHere("drive(_:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }
}

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// Accepts every element, as an optional, into `relays`, on the calling screen.
    ///
    /// ```swift
    /// let lastTapped = PublishRelay<Movie?>()
    /// driver.tappedMovie.emit(to: lastTapped)  // `driver.tappedMovie` is a `Signal<Movie>`
    /// ```
    public func emit(to relays: PublishRelay<Element?>...) -> any Disposable {
        guard mayDeliverHere("emit(to:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element, as an optional, into `relays`, on the calling screen.
    public func emit(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        guard mayDeliverHere("emit(to:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element into `relays`, on the calling screen.
    public func emit(to relays: ReplayRelay<Element>...) -> any Disposable {
        guard mayDeliverHere("emit(to:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Accepts every element, as an optional, into `relays`, on the calling screen.
    public func emit(to relays: ReplayRelay<Element?>...) -> any Disposable {
        guard mayDeliverHere("emit(to:)", file: #fileID, line: #line) else {
            return Disposables.create()
        }
        return asObservable().subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }
}

extension ObservableType {
    /// Sends every element, as an optional, to each of `relays`; an error is a programmer error.
    ///
    /// ```swift
    /// let query = BehaviorRelay<String?>(value: nil)
    /// field.rx.text.orEmpty.bind(to: query)
    /// ```
    public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element, as an optional, to each of `relays`; an error is a programmer error.
    public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element to each of `relays`; an error is a programmer error.
    public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Sends every element, as an optional, to each of `relays`; an error is a programmer error.
    public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
        bind(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }
}
