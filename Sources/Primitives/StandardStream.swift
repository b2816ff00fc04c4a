internal import Glibc

/// The process's standard output or standard error, written unbuffered: each call's bytes are handed to the system
/// before it returns, in order, whole (a partial write goes on where it stopped; an interrupted one is retried).
///
/// For the few lines a process prints itself (a banner, a usage text, a last error); its log goes through `Logger`.
/// A write that fails (a closed pipe) is dropped: there is nowhere left to report it.
///
/// ```swift
/// StandardStream.error.write("movies: no such database\n")
/// ```
public enum StandardStream: Sendable {
    case output
    case error

    private var descriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Writes `text`'s UTF-8 bytes.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes`.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes the bytes of `buffer`.
    public func write(_ buffer: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
