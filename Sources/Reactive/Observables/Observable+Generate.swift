extension ObservableType {
    /// Sends `initialState`, then each state `iterate` makes of the one before, while `condition` holds; then
    /// completes. Each element is scheduled on `scheduler` (without one, sent synchronously); a thrown error fails
    /// the sequence.
    ///
    /// ```swift
    /// Observable.generate(initialState: 1, condition: { $0 < 1_000 }, iterate: { $0 * 2 })
    /// ```
    public static func generate(
        initialState: Element, condition: @escaping (Element) throws -> Bool,
        scheduler: (any ImmediateSchedulerType)? = nil, iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        Observable.create { observer in
            var state = initialState
            var isFirst = true
            // One step: advances the state (after the first), checks the condition, sends; false when finished.
            func step() -> Bool {
                do {
                    if !isFirst { state = try iterate(state) }
                    isFirst = false
                    guard try condition(state) else {
                        observer.onCompleted()
                        return false
                    }
                } catch {
                    observer.onError(error)
                    return false
                }
                observer.onNext(state)
                return true
            }
            guard let scheduler else {
                // Deferred to the trampoline, as `from`'s loop: it starts once the chain holds this subscription, so
                // an operator below that stops it (`take`) ends the loop.
                let cancel = SingleAssignmentDisposable()
                Trampoline.schedule { while !cancel.isDisposed, step() {} }
                return cancel
            }
            let pending = SerialDisposable()
            func scheduleStep() {
                pending.disposable = scheduler.schedule(()) { _ in
                    if step() { scheduleStep() }
                    return Disposables.create()
                }
            }
            scheduleStep()
            return pending
        }
    }

    /// Sends `element` again and again, each scheduled on `scheduler` (without one, synchronously until disposed).
    ///
    /// ```swift
    /// Observable.repeatElement(0, scheduler: scheduler).take(3)
    /// ```
    public static func repeatElement(_ element: Element, scheduler: (any ImmediateSchedulerType)? = nil)
        -> Observable<Element>
    {
        generate(initialState: element, condition: { _ in true }, scheduler: scheduler) { $0 }
    }
}

extension ObservableType where Element: FixedWidthInteger {
    /// Sends `count` integers from `start` up, each scheduled on `scheduler` (without one, synchronously), then
    /// completes. A negative count, or one that would overflow, is a reported mistake and fails the sequence with
    /// `RxError.argumentOutOfRange`.
    ///
    /// ```swift
    /// Observable.range(start: 1, count: 10)
    /// ```
    public static func range(start: Element, count: Element, scheduler: (any ImmediateSchedulerType)? = nil)
        -> Observable<Element>
    {
        guard count >= 0, count == 0 || !start.addingReportingOverflow(count - 1).overflow else {
            ProgrammerErrors.report(
                ProgrammerError(
                    mistake: "range(start: \(start), count: \(count)) has a negative count or overflows.",
                    fix: "pass a count of 0 or more whose last element fits the element type."))
            return .error(RxError.argumentOutOfRange)
        }
        // Wrapping: the state after the last element may overflow; its distance from `start` stays `count`.
        return generate(initialState: start, condition: { $0 &- start < count }, scheduler: scheduler) { $0 &+ 1 }
    }
}
