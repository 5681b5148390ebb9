import CMicroHTTPD
import Foundation
import Glibc

/// A resolved bind address, kept alive for as long as the daemon that uses it.
final class SocketAddress: @unchecked Sendable {
    /// Owned storage; never mutated after init.
    let storage: UnsafeMutablePointer<sockaddr_storage>
    let isIPv6: Bool
    /// As given, for messages.
    let host: String
    let port: Int

    /// Resolves `host` (a literal or a name) for a passive TCP socket on `port`.
    init(host: String, port: Int) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw HTTPServerError.cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(result) }
        storage = .allocate(capacity: 1)
        storage.initialize(to: sockaddr_storage())
        UnsafeMutableRawPointer(storage).copyMemory(from: first.pointee.ai_addr, byteCount: Int(first.pointee.ai_addrlen))
        isIPv6 = first.pointee.ai_family == AF_INET6
        self.host = host
        self.port = port
    }

    deinit { storage.deallocate() }
}
