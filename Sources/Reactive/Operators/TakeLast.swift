extension ObservableType {
    /// Sends the last `count` elements when the sequence completes (a negative count is a reported mistake and counts
    /// as 0); fails with its error.
    ///
    /// ```swift
    /// log.takeLast(10)
    /// ```
    public func takeLast(_ count: Int) -> Observable<Element> {
        let count = ProgrammerErrors.checkedCount(count, "takeLast(_:)")
        let source = asObservable()
        return Observable.create { observer in
            var buffer: [Element] = []
            var head = 0
            return source.subscribe { event in
                switch event {
                case .next(let element):
                    guard count > 0 else { return }
                    buffer.append(element)
                    if buffer.count - head > count { head += 1 }
                    if head > count {
                        buffer.removeFirst(head)
                        head = 0
                    }
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    for element in buffer[head...] { observer.onNext(element) }
                    observer.onCompleted()
                }
            }
        }
    }
}
