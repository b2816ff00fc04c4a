// Two C interfaces below the standard library and Foundation that the schedulers and the render buffer share,
// declared once here: thread-local slots (POSIX keys) and libdispatch's function-pointer `async`. Other Glibc calls
// (sockets, signals, clocks, `getrandom`) stay in the files that need them, each file's own door; libmicrohttpd,
// gumbo, SQLite, libpq and libcrypto are each behind a system-library target of their own (see `Package.swift`).

public import CDispatch
public import Glibc

/// A thread-local slot that holds one raw pointer per thread (a POSIX key), made once for the process.
///
/// What the slot's pointer names, and who keeps it alive, is the owner's contract: a scheduler names the lane whose
/// turn the thread runs (unretained: the turn holds it); a render keeps its spare buffer retained, released by the
/// destructor when the thread ends.
public struct ThreadSlot: Sendable {
    /// The POSIX key.
    public let key: pthread_key_t

    /// Makes the slot; `destructor` runs with a thread's non-nil pointer when that thread ends.
    public init(_ name: StaticString, destructor: (@convention(c) (UnsafeMutableRawPointer?) -> Void)? = nil) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, destructor)
        // Only when the process has used up its keys (PTHREAD_KEYS_MAX, 1,024 on glibc), at start-up.
        precondition(status == 0, "\(name): no thread-local key (pthread_key_create: \(status))")
        self.key = key
    }

    /// The calling thread's pointer, or nil.
    @inlinable @inline(__always)
    public var pointer: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    /// Sets the calling thread's pointer.
    @inlinable @inline(__always)
    public func set(_ pointer: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, pointer)
    }
}

/// libdispatch's global queue, reached with a context pointer and a C function rather than a block: no block is
/// allocated per submission (a screen's lane goes on the queue each time it has work).
public enum GlobalQueue {
    /// Runs `work(context)` on a thread of the default global queue.
    @inlinable @inline(__always)
    public static func async(
        context: UnsafeMutableRawPointer, _ work: @convention(c) (UnsafeMutableRawPointer?) -> Void
    ) {
        dispatch_async_f(dispatch_get_global_queue(0, 0), context, work)
    }
}
