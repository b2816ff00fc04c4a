public import Foundation
import Primitives
public import Reactive

extension ObservableConvertibleType {
    /// The sequence as a `BlockingObservable`, whose methods wait on the calling thread for its events, as RxBlocking's:
    /// for tests of sequences that stop on their own (synchronous ones, or ones that run on other threads). With a
    /// `timeout` (in seconds), waiting longer fails with `RxError.timeout`.
    ///
    /// ```swift
    /// #expect(try Observable.of(1, 2, 3).toBlocking().toArray() == [1, 2, 3])
    /// ```
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(source: asObservable(), timeout: timeout)
    }
}

/// A sequence read by waiting for its events on the calling thread, as RxBlocking's `BlockingObservable`.
///
/// Contract: each method subscribes once, waits until the sequence stops (or, for `first()`, until its first
/// element), disposes the subscription, and returns or throws what the sequence sent; past the timeout it throws
/// `RxError.timeout`. Never use it on a thread that must run for the sequence to progress (a `TestScheduler`'s,
/// a screen's).
///
/// ```swift
/// let movie = try api.movie(id: 7).toBlocking(timeout: 2).single()
/// ```
public struct BlockingObservable<Element> {
    let source: Observable<Element>
    let timeout: TimeInterval?

    /// Every element, once the sequence completes; throws its error.
    public func toArray() throws -> [Element] {
        switch materialize() {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }

    /// The first element, or `nil` if the sequence completes empty; throws its error.
    public func first() throws -> Element? {
        let result = run(stopAfterFirst: true)
        if let error = result.error { throw error }
        return result.elements.first
    }

    /// The last element, or `nil` if the sequence completes empty; throws its error.
    public func last() throws -> Element? {
        try toArray().last
    }

    /// The one element; throws `RxError.noElements` if there is none, `RxError.moreThanOneElement` if there are more.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The one element that satisfies `predicate`; throws `RxError.noElements` if there is none,
    /// `RxError.moreThanOneElement` if there are more.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try toArray().filter(predicate)
        guard let element = elements.first else { throw RxError.noElements }
        guard elements.count == 1 else { throw RxError.moreThanOneElement }
        return element
    }

    /// The elements and how the sequence stopped, without throwing.
    public func materialize() -> MaterializedSequenceResult<Element> {
        let result = run(stopAfterFirst: false)
        if let error = result.error { return .failed(elements: result.elements, error: error) }
        return .completed(elements: result.elements)
    }

    private struct Outcome {
        var elements: [Element] = []
        var error: (any Error)?
        var isStopped = false
    }

    private func run(stopAfterFirst: Bool) -> Outcome {
        let outcome = Locked(Outcome())
        let stopped = DispatchSemaphore(value: 0)
        let subscription = source.subscribe { event in
            let signals = outcome.withLock { outcome -> Bool in
                guard !outcome.isStopped else { return false }
                switch event {
                case .next(let element):
                    outcome.elements.append(element)
                    guard stopAfterFirst else { return false }
                case .error(let error):
                    outcome.error = error
                case .completed:
                    break
                }
                outcome.isStopped = true
                return true
            }
            if signals { stopped.signal() }
        }
        let deadline: DispatchTime = timeout.map { .now() + $0 } ?? .distantFuture
        let timedOut = stopped.wait(timeout: deadline) == .timedOut
        subscription.dispose()
        return outcome.withLock { outcome in
            if timedOut && !outcome.isStopped {
                outcome.isStopped = true
                outcome.error = RxError.timeout
            }
            return outcome
        }
    }
}

@available(*, unavailable)
extension BlockingObservable: Sendable {}

/// The elements of a sequence and how it stopped, as RxBlocking's.
///
/// ```swift
/// guard case .failed(let elements, let error) = source.toBlocking().materialize() else { return }
/// ```
public enum MaterializedSequenceResult<Element> {
    /// The sequence completed after `elements`.
    case completed(elements: [Element])
    /// The sequence failed with `error` after `elements`.
    case failed(elements: [Element], error: any Error)
}
