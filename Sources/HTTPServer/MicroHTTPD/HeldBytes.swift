internal import CMicroHTTPD

/// A response body MHD sends from the bytes themselves, held until MHD frees the response: a page's bytes are not
/// copied into a buffer of MHD's (`MHD_RESPMEM_MUST_COPY` allocated and copied a detail page's bytes, and an
/// allocation of that size made glibc consolidate its free chunks first; receipt: `HeldBytes` in
/// Benchmarks/History/35-page-instructions.md).
///
/// Contract: the array is never mutated, and outlives every read of it: MHD reads the address given until it calls
/// ``released``, which drops the last reference this type holds. A native array's storage does not move while it is
/// neither mutated nor freed, so the address its `withUnsafeBytes` gives stays valid as long as the box holds it.
final class HeldBytes {
    private let bytes: [UInt8]

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Bodies below this size are copied as before: a copy of a few kilobytes costs less than the box.
    static let minimumSize = 4 * 1024

    /// An MHD response sending `bytes` in place.
    static func makeResponse(for bytes: [UInt8]) throws -> OpaquePointer {
        let box = HeldBytes(bytes)
        let context = Unmanaged.passRetained(box).toOpaque()
        do {
            return try box.bytes.withUnsafeBytes { buffer in
                try check(
                    MHD_create_response_from_buffer_with_free_callback_cls(
                        buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), HeldBytes.released, context
                    ),
                    "MHD_create_response_from_buffer_with_free_callback_cls")
            }
        } catch {
            Unmanaged<HeldBytes>.fromOpaque(context).release()
            throw error
        }
    }

    private static let released: MHD_ContentReaderFreeCallback = { context in
        Unmanaged<HeldBytes>.fromOpaque(context!).release()
    }
}
