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

/// Connections held per client (`ClientKey`), against `limit` (0: no limit). Counted when MHD
/// starts a connection and released when it closes, on the workers' threads.
final class ClientLimit: Sendable {
    let limit: Int
    private let counts = Locked<[ClientKey: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more connection of `key`; false (and not counted) past the limit.
    func admit(_ key: ClientKey) -> Bool {
        counts.withLock { counts in
            let held = counts[key, default: 0]
            if limit > 0, held >= limit { return false }
            counts[key] = held + 1
            return true
        }
    }

    /// One connection of `key` closed.
    func release(_ key: ClientKey) {
        counts.withLock { counts in
            let held = counts[key, default: 1] - 1
            counts[key] = held > 0 ? held : nil
        }
    }

    /// Connections counted now for `key` (tests).
    func held(by key: ClientKey) -> Int { counts.withLock { $0[key, default: 0] } }
}
