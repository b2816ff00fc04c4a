extension ObservableType {
    /// Sends the element at `index` (counting from 0), then completes; fails with `RxError.argumentOutOfRange` if the
    /// sequence completes first. A negative index is a reported mistake and fails the same way.
    ///
    /// ```swift
    /// pages.element(at: 2)
    /// ```
    public func element(at index: Int) -> Observable<Element> {
        guard index >= 0 else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "element(at:) was given \(index), a negative index; the sequence fails.",
                    fix: "pass an index of 0 or more."))
            return .error(RxError.argumentOutOfRange)
        }
        let source = asObservable()
        return Observable.create { observer in
            var remaining = index
            return source.subscribe { event in
                switch event {
                case .next(let element):
                    guard remaining == 0 else {
                        remaining -= 1
                        return
                    }
                    observer.onNext(element)
                    observer.onCompleted()
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onError(RxError.argumentOutOfRange)
                }
            }
        }
    }
}
