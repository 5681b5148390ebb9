import CMicroHTTPD
import Synchronization

/// The `X-Request-Id` of a request: the client's when it is usable — 1 to 128 visible ASCII
/// characters (`!` to `~`: no blanks, no control characters, nothing to escape in a header) —
/// else one made here. Every response echoes it, refusals included.
///
/// A made id is 15 characters, `[0-9a-v]`: 7 drawn at random once per process (35 bits, so
/// instances do not repeat each other's ids) and 8 of a per-process counter (2^40 requests).
/// 15 UTF-8 bytes fit in a Swift small string: making one allocates nothing and takes no lock.
public enum RequestID {
    public static let headerName = "X-Request-Id"
    /// The longest id accepted from a client.
    public static let maxLength = 128

    /// The client's id, or nil when there is none or it is unusable.
    static func accepted(from connection: OpaquePointer) -> String? {
        guard let value = headerName.withCString({ MHD_lookup_connection_value(connection, .HEADER_KIND, $0) }) else { return nil }
        return accepted(UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self))
    }

    /// `bytes` (a C string) as an id, or nil when empty, longer than `maxLength`, or holding
    /// anything but visible ASCII.
    static func accepted(_ bytes: UnsafePointer<UInt8>) -> String? {
        var count = 0
        while bytes[count] != 0 {
            guard count < maxLength, (0x21...0x7E).contains(bytes[count]) else { return nil }
            count += 1
        }
        guard count > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Whether `text` would be accepted from a client.
    public static func isAcceptable(_ text: String) -> Bool {
        (1...maxLength).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// A new id.
    static func make() -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        return String(unsafeUninitializedCapacity: 15) { buffer in
            for index in 0..<7 { buffer[index] = prefix[index] }
            for index in 0..<8 { buffer[7 + index] = digits[Int(truncatingIfNeeded: number >> (35 - 5 * index)) & 31] }
            return 15
        }
    }

    private static let counter = Atomic<UInt64>(0)
    private static let digits = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    private static let prefix: [UInt8] = {
        var random = SystemRandomNumberGenerator()
        return (0..<7).map { _ in digits[Int(random.next() % 32)] }
    }()
}
