import Glibc

/// A bound, listening, non-blocking TCP socket, made here rather than by libmicrohttpd so that a
/// taken port is a clear error and port 0 reports the port it got.
struct ListenSocket {
    let descriptor: Int32
    let port: Int

    init(host: String, port: Int, backlog: Int32 = 1024) throws {
        guard (0...65535).contains(port) else { throw ServerError("port \(port) is out of range") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw ServerError("cannot resolve host \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no usable address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                lastError = ListenSocket.errorText()
                continue
            }
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            if bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0
                || listen(descriptor, backlog) != 0
                || fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) != 0
            {
                lastError = ListenSocket.errorText()
                close(descriptor)
                continue
            }
            self.descriptor = descriptor
            self.port = ListenSocket.boundPort(of: descriptor) ?? port
            return
        }
        throw ServerError("cannot listen on \(host):\(port): \(lastError)")
    }

    /// Whether `descriptor` is open on the same socket as `original` (which the caller holds open, so no other
    /// socket can have its identity): false for a closed descriptor, or one whose number now names something else.
    static func isSameSocket(_ descriptor: Int32, as original: Int32) -> Bool {
        var mine = stat()
        var theirs = stat()
        guard fstat(original, &mine) == 0, fstat(descriptor, &theirs) == 0 else { return false }
        return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino
    }

    private static func boundPort(of descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            default: nil
            }
        }
    }

    static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
