/// One event of a sequence. A sequence obeys the grammar `next* (error | completed)?`.
public enum Event<Element> {
    /// The next element.
    case next(Element)
    /// The sequence failed; nothing follows.
    case error(any Error)
    /// The sequence finished; nothing follows.
    case completed

    /// Whether this is `error` or `completed`.
    public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The element of a `next` event.
    public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// The error of an `error` event.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether this is `completed`.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a `next` event; a thrown error becomes an `error` event.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        switch self {
        case .next(let element):
            do { return .next(try transform(element)) } catch { return .error(error) }
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

extension Event: Sendable where Element: Sendable {}

extension Event: CustomDebugStringConvertible {
    /// `next(1)`, `error(…)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let element): return "next(\(element))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}
