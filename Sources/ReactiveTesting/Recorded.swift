public import Reactive

/// Virtual time: ticks of a `TestScheduler`.
public typealias TestTime = Int

/// A value recorded at a virtual time: the unit of marble-style expectations, as in RxTest.
///
/// ```swift
/// #expect(observer.events == [.next(210, 2), .completed(300)])
/// ```
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When the value was recorded.
    public let time: TestTime
    /// What was recorded.
    public let value: Value

    /// Records `value` at `time`.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value @ time`.
    public var debugDescription: String {
        "\(value) @ \(time)"
    }
}

extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Sendable where Value: Sendable {}

extension Recorded {
    /// A `next` event at `time`.
    public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// A `completed` event at `time`.
    public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self)
        -> Recorded<Event<Element>> where Value == Event<Element>
    {
        Recorded(time: time, value: .completed)
    }

    /// An `error` event at `time`.
    public static func error<Element>(_ time: TestTime, _ error: any Error, _ type: Element.Type = Element.self)
        -> Recorded<Event<Element>> where Value == Event<Element>
    {
        Recorded(time: time, value: .error(error))
    }
}

extension Event: Equatable where Element: Equatable {
    /// Equal kinds with equal elements; errors compare by their reflected description, as in
    /// RxTest.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.next(let left), .next(let right)): return left == right
        case (.completed, .completed): return true
        case (.error(let left), .error(let right)): return String(reflecting: left) == String(reflecting: right)
        default: return false
        }
    }
}

/// When a test observable was subscribed and unsubscribed, in virtual time.
public struct Subscription: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// When `subscribe` was called.
    public let subscribe: TestTime
    /// When the subscription was disposed (`Int.max` while it lives).
    public let unsubscribe: TestTime

    /// A subscription from `subscribe` that is still live.
    public init(_ subscribe: TestTime) {
        self.init(subscribe, Int.max)
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe, unsubscribe)`.
    public var debugDescription: String {
        unsubscribe == Int.max ? "(\(subscribe), never)" : "(\(subscribe), \(unsubscribe))"
    }
}

extension MaybeEvent: Equatable where Element: Equatable {
    /// Equal kinds with equal elements; errors compare by their reflected description, as `Event`'s.
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)): return left == right
        case (.completed, .completed): return true
        case (.error(let left), .error(let right)): return String(reflecting: left) == String(reflecting: right)
        default: return false
        }
    }
}

extension CompletableEvent: Equatable {
    /// Equal kinds; errors compare by their reflected description, as `Event`'s.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.error(let left), .error(let right)): return String(reflecting: left) == String(reflecting: right)
        default: return false
        }
    }
}

extension Recorded {
    /// The recorded events given, as an array, as RxTest's `Recorded.events(_:)`.
    ///
    /// ```swift
    /// #expect(observer.events == Recorded.events(.next(210, 1), .completed(300)))
    /// ```
    public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...) -> [Recorded<Event<Element>>]
    where Value == Event<Element> {
        recordedEvents
    }
}
