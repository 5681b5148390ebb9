import Foundation
import Glibc
import Testing

@testable import MicroHTTP

// The per-client limit counts an IPv4 address, or an IPv6 /64 prefix: one host usually holds a
// whole /64, and could otherwise pick a new address for every connection.

@Suite("Per-client connection counting")
struct ClientLimitTests {
    static func key(_ text: String) -> ClientKey? {
        var storage = sockaddr_storage()
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> ClientKey? in
                if text.contains(":") {
                    let ipv6 = UnsafeMutableRawPointer(address).assumingMemoryBound(to: sockaddr_in6.self)
                    ipv6.pointee.sin6_family = sa_family_t(AF_INET6)
                    guard inet_pton(AF_INET6, text, &ipv6.pointee.sin6_addr) == 1 else { return nil }
                } else {
                    let ipv4 = UnsafeMutableRawPointer(address).assumingMemoryBound(to: sockaddr_in.self)
                    ipv4.pointee.sin_family = sa_family_t(AF_INET)
                    guard inet_pton(AF_INET, text, &ipv4.pointee.sin_addr) == 1 else { return nil }
                }
                return ClientKey(address: address)
            }
        }
    }

    @Test("IPv6 addresses count by their /64 prefix, IPv4 ones (mapped too) by address")
    func keys() throws {
        #expect(Self.key("2001:db8:1:2::1") == Self.key("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        #expect(Self.key("2001:db8:1:2::1") != Self.key("2001:db8:1:3::1"))
        #expect(Self.key("198.51.100.7") == Self.key("::ffff:198.51.100.7"))
        #expect(Self.key("198.51.100.7") != Self.key("198.51.100.8"))
        #expect(Self.key("::1") != Self.key("0.0.0.1"))
    }

    @Test("a client is admitted up to its limit, and again once a connection closes")
    func admits() throws {
        let limit = ClientLimit(limit: 2)
        let a = try #require(Self.key("2001:db8::1")), b = try #require(Self.key("2001:db8::2")), c = try #require(Self.key("2001:db9::1"))
        #expect(limit.admit(a))
        #expect(limit.admit(b))
        #expect(!limit.admit(a), "a third connection from the same /64")
        #expect(limit.admit(c), "another /64")
        limit.release(b)
        #expect(limit.admit(a))
        #expect(limit.held(by: a) == 2)
    }
}
