import Glibc

/// A client's IP address as its connection gave it, written out as text (`inet_ntop` and a string) only when asked
/// for: most requests never are.
package enum PeerAddress: Sendable {
    /// An address already as text (set by hand, or none: empty).
    case text(String)
    /// The four bytes of an IPv4 address, in network order.
    case ipv4(UInt32)
    /// The sixteen bytes of an IPv6 address, in network order.
    case ipv6(UInt64, UInt64)

    /// Reads the address `sockaddr` points to; `.text("")` for another family or none.
    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else {
            self = .text("")
            return
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            self = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .ipv4($0.pointee.sin_addr.s_addr) }
        case AF_INET6:
            self = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                withUnsafeBytes(of: address.pointee.sin6_addr) { bytes in
                    .ipv6(bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                }
            }
        default:
            self = .text("")
        }
    }

    /// `127.0.0.1`, `::1`, or the text it holds.
    package var text: String {
        switch self {
        case .text(let text):
            return text
        case .ipv4(let bytes):
            var address = in_addr(s_addr: bytes)
            return Self.format(AF_INET, &address)
        case .ipv6(let high, let low):
            var bytes = (high, low)
            return Self.format(AF_INET6, &bytes)
        }
    }

    private static func format(_ family: Int32, _ address: UnsafeRawPointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { text in
            guard inet_ntop(family, address, text.baseAddress, socklen_t(text.count)) != nil else { return "" }
            return String(cString: text.baseAddress!)
        }
    }
}
