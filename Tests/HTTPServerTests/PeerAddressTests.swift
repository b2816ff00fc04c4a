import Glibc
import Testing

@testable import HTTPServer

/// The client's address is kept as the connection gave it and written out only when a handler asks.
@Suite struct PeerAddressTests {
    private func address<Address>(_ value: Address) -> String {
        withUnsafePointer(to: value) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { PeerAddress($0).text }
        }
    }

    @Test func writesIPv4AddressesAsDottedQuads() {
        var socket = sockaddr_in()
        socket.sin_family = sa_family_t(AF_INET)
        #expect(inet_pton(AF_INET, "192.0.2.7", &socket.sin_addr) == 1)
        #expect(address(socket) == "192.0.2.7")
    }

    @Test func writesIPv6AddressesInTheirShortForm() {
        for text in ["::1", "2001:db8::8a2e:370:7334", "fe80::1"] {
            var socket = sockaddr_in6()
            socket.sin6_family = sa_family_t(AF_INET6)
            #expect(inet_pton(AF_INET6, text, &socket.sin6_addr) == 1)
            #expect(address(socket) == text)
        }
    }

    @Test func anotherFamilyOrNoAddressIsEmpty() {
        var socket = sockaddr_un()
        socket.sun_family = sa_family_t(AF_UNIX)
        #expect(address(socket) == "")
        #expect(PeerAddress(nil).text == "")
    }

    @Test func aRequestsAddressCanBeSetByHand() {
        var request = Request(method: .get, target: "/", remoteAddress: "10.0.0.1")
        #expect(request.remoteAddress == "10.0.0.1")
        request.peer = .ipv4(UInt32(bigEndian: 0x7F00_0001))
        #expect(request.remoteAddress == "127.0.0.1")
        request.remoteAddress = "::1"
        #expect(request.remoteAddress == "::1")
    }
}
