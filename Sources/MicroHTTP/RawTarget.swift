import Glibc

/// What a request target was before libmicrohttpd decoded it in place. MHD percent-decodes the
/// path into a C string, so a `%00` (or a raw NUL) silently cuts it short, and a control
/// character arrives decoded; the raw target, seen by the request-line callback, tells both.
struct RawTarget {
    /// `strlen` of the raw target (path and query): shorter than the bytes MHD read when a raw NUL
    /// is in it.
    var length = 0
    /// A control character (or a blank) is in the path or query, raw or percent-encoded.
    var hasControl = false

    init() {}

    init(_ target: UnsafePointer<CChar>) {
        let bytes = UnsafeRawBufferPointer(start: target, count: strlen(target))
        length = bytes.count
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte <= 0x20 || byte == 0x7F {
                hasControl = true
                return
            }
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = Self.hex(bytes[index + 1]), let low = Self.hex(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if decoded < 0x20 || decoded == 0x7F {
                    hasControl = true
                    return
                }
                index += 3
                continue
            }
            index += 1
        }
    }

    /// Whether MHD read more target bytes than the C string holds: a raw NUL. `url` and
    /// `version` point into MHD's copy of the request line (`target SP version`), as measured on
    /// 0.9.75; a version that is not there (HTTP/0.9) tells nothing.
    func isCut(url: UnsafePointer<CChar>, version: UnsafePointer<CChar>?) -> Bool {
        guard let version, version.pointee != 0 else { return false }
        let span = version - url - 1
        guard span > 0, span < 1 << 20 else { return false }
        return span != length
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Whether a decoded path is in the one form alertd serves: it begins with `/`, and has no
/// empty segment (`//`, a trailing `/` other than the root's) and no `.` or `..` segment.
/// Decoded, so `%2e%2e` and `%2F` count as what they stand for.
func isCanonicalPath(_ path: UnsafePointer<CChar>) -> Bool {
    let bytes = UnsafeRawBufferPointer(start: path, count: strlen(path))
    guard bytes.first == UInt8(ascii: "/") else { return false }
    if bytes.count == 1 { return true }
    var segmentStart = 1
    for index in 1...bytes.count {
        guard index == bytes.count || bytes[index] == UInt8(ascii: "/") else { continue }
        let segment = bytes[segmentStart..<index]
        if segment.isEmpty { return false }
        if segment.allSatisfy({ $0 == UInt8(ascii: ".") }), segment.count <= 2 { return false }
        segmentStart = index + 1
    }
    return true
}
