internal import FoundationEssentials
internal import Glibc

/// What a file operation's error says to a person: the system's words for its cause ("No such file or directory"),
/// for an error from `FileManager` or `Data(contentsOf:)`, or the error as it prints otherwise. For messages that name
/// the file themselves ("catalog movies.json: cannot be read (No such file or directory)").
package func systemErrorDescription(_ error: any Error) -> String {
    if let error = error as? CocoaError, let cause = error.underlying as? POSIXError {
        return String(cString: strerror(cause.code.rawValue))
    }
    if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
    return "\(error)"
}
