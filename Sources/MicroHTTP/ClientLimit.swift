import Glibc
import Locking

/// Who a connection counts against for the per-client limit: an IPv4 address, or the /64
/// prefix of an IPv6 one (a single host is usually given a whole /64, so counting full IPv6
/// addresses would let one client open as many connections as it picks addresses). An
/// IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) counts as its IPv4 address.
struct ClientKey: Hashable, Sendable {
    /// The 4 address bytes (IPv4) or the 8 prefix bytes (IPv6), big-endian in the low bits.
    let bits: UInt64
    let isIPv6: Bool

    init?(address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in.self)
            bits = UInt64(UInt32(bigEndian: ipv4.pointee.sin_addr.s_addr))
            isIPv6 = false
        case AF_INET6:
            let ipv6 = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                bits = bytes[12..<16].reduce(0) { $0 << 8 | UInt64($1) }
                isIPv6 = false
            } else {
                bits = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
                isIPv6 = true
            }
        default:
            return nil
        }
    }
}

/// Connections held per client (`ClientKey`), against `limit` (0: no limit). Counted by the
/// accepting thread, in the order the connections arrive (a connection past the limit is closed
/// there and never reaches MHD), and released when MHD closes the connection.
final class ClientLimit: Sendable {
    let limit: Int
    private struct State {
        var counts: [ClientKey: Int] = [:]
        /// Sockets accepted and counted, not yet started by MHD: their key, by descriptor.
        var accepted: [Int32: ClientKey] = [:]
    }
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more connection of `key`; false (and not counted) past the limit.
    func admit(_ key: ClientKey) -> Bool {
        state.withLock { state in
            let held = state.counts[key, default: 0]
            if limit > 0, held >= limit { return false }
            state.counts[key] = held + 1
            return true
        }
    }

    /// Counts the connection of socket `fd` for `key`, as the accepting thread does; false
    /// (and not counted) past the limit.
    func accept(_ fd: Int32, for key: ClientKey) -> Bool {
        guard admit(key) else { return false }
        state.withLock { $0.accepted[fd] = key }
        return true
    }

    /// The key socket `fd` was counted for when accepted, once MHD starts its connection.
    func started(_ fd: Int32) -> ClientKey? {
        state.withLock { $0.accepted.removeValue(forKey: fd) }
    }

    /// One connection of `key` closed.
    func release(_ key: ClientKey) {
        state.withLock { state in
            let held = state.counts[key, default: 1] - 1
            state.counts[key] = held > 0 ? held : nil
        }
    }

    /// Connections counted now for `key` (tests).
    func held(by key: ClientKey) -> Int { state.withLock { $0.counts[key, default: 0] } }
}
