internal import CMicroHTTPD

/// A libmicrohttpd call that reported failure.
struct MicroHTTPDError: Error, CustomStringConvertible {
    let operation: String
    var description: String { "libmicrohttpd: \(operation) failed" }
}

/// The one place a libmicrohttpd status turns into a Swift error.
func check(_ result: MHD_Result, _ operation: @autoclosure () -> String) throws {
    guard result == .YES else { throw MicroHTTPDError(operation: operation()) }
}

/// The one place a libmicrohttpd constructor's `NULL` turns into a Swift error.
func check<Pointer>(_ pointer: Pointer?, _ operation: @autoclosure () -> String) throws -> Pointer {
    guard let pointer else { throw MicroHTTPDError(operation: operation()) }
    return pointer
}
