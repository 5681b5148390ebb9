import Glibc
import MicroHTTP

/// Entity tags (RFC 9110 §8.8.3) for bytes served again and again, and the `If-None-Match`
/// check (§13.1.2) that lets a client keep its copy.
///
/// ```swift
/// let tag = EntityTag.strong(for: body)             // "\"3f2a…\"" (quotes included)
/// if EntityTag.matches(request.http.headers, tag) { /* answer 304 */ }
/// ```
enum EntityTag {
    /// A strong tag for `bytes`: their 128-bit MurmurHash3 in hex, quoted. (SHA-256 was a
    /// quarter of a cache miss's instructions on a CPU without SHA instructions; a tag needs
    /// no more than a well-spread hash that every instance computes alike.)
    static func strong(for bytes: [UInt8]) -> String {
        let (h1, h2) = bytes.withUnsafeBytes { Murmur3.hash128($0) }
        // The quoted hex written as bytes: appending Unicode scalars one by one to a String was a
        // third of the tag's cost.
        return String(unsafeUninitializedCapacity: 34) { text in
            text[0] = UInt8(ascii: "\"")
            var index = 1
            for half in [h1, h2] {
                for shift in stride(from: 0, to: 64, by: 8) {
                    let byte = UInt8(truncatingIfNeeded: half >> UInt64(shift))
                    text[index] = hexDigits[Int(byte >> 4)]
                    text[index + 1] = hexDigits[Int(byte & 0x0f)]
                    index += 2
                }
            }
            text[index] = UInt8(ascii: "\"")
            return index + 1
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether the `If-None-Match` fields of `headers` name `tag` (quoted, strong), by weak
    /// comparison: `W/"x"` matches `"x"`; a list matches when any member does; `*` matches
    /// anything. False when there is no such field (the condition holds: answer the body).
    static func matches(_ headers: HTTPHeaders, _ tag: String) -> Bool {
        for field in headers where isIfNoneMatch(field.name) {
            var value = field.value, tag = tag
            // The strings' own bytes, compared as bytes: no copy, no generic iteration.
            if value.withUTF8({ value in tag.withUTF8 { listMatches(value, $0) } }) { return true }
        }
        return false
    }

    private static let ifNoneMatch = Array("if-none-match".utf8)

    /// `If-None-Match`, ASCII case-insensitively, without allocating.
    private static func isIfNoneMatch(_ name: String) -> Bool {
        guard name.utf8.count == ifNoneMatch.count else { return false }
        var name = name
        return name.withUTF8 { bytes in
            for (byte, expected) in zip(bytes, ifNoneMatch) where ((0x41...0x5a).contains(byte) ? byte | 0x20 : byte) != expected {
                return false
            }
            return true
        }
    }

    /// Scans `#entity-tag` or `*`. A member that is not an entity tag is skipped up to the next
    /// comma, so one bad member does not hide a good one.
    private static func listMatches(_ bytes: UnsafeBufferPointer<UInt8>, _ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        while index < bytes.count {
            // Skip separators and whitespace.
            while index < bytes.count, bytes[index] == comma || bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: "*") { return true }
            if bytes[index] == UInt8(ascii: "W"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") { index += 2 }
            if index < bytes.count, bytes[index] == quote,
               let found = memchr(bytes.baseAddress! + index + 1, Int32(quote), bytes.count - index - 1) {
                // The member is `"…"`: compared whole (quotes included) with the tag.
                let end = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if end - index + 1 == tag.count, memcmp(bytes.baseAddress! + index, tag.baseAddress!, tag.count) == 0 { return true }
                index = end + 1
            } else {
                while index < bytes.count, bytes[index] != comma { index += 1 }
            }
        }
        return false
    }
}
