/// Errors the library itself produces.
public enum RxError: Error, CustomDebugStringConvertible {
    /// Something went wrong that has no better name.
    case unknown
    /// The object (named by its type) was used after it was disposed.
    case disposed(object: String)
    /// An argument was out of its allowed range.
    case argumentOutOfRange
    /// A sequence expected to have elements had none.
    case noElements
    /// A sequence expected to have one element had more.
    case moreThanOneElement
    /// An arithmetic overflow.
    case overflow
    /// A time-out elapsed.
    case timeout

    /// A readable description.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .overflow: return "Arithmetic overflow occurred."
        case .timeout: return "Sequence timeout."
        }
    }
}
