import Foundation

extension SpecChecker {
    /// A URL that parses and uses https, http or an app's own scheme.
    mutating func url(_ pointer: @autoclosure () -> String, _ value: String) {
        if CheckedURLs.shared.contains(value) { return }
        guard value.utf8.count <= SpecLimits.url else {
            return error(pointer(), "invalid-url", "The URL is longer than \(SpecLimits.url) bytes.")
        }
        guard let colon = URLScheme.end(of: value), let components = URLComponents(string: value) else {
            return error(pointer(), "invalid-url", "\"\(value)\" is not a URL with a scheme.")
        }
        let scheme = value[..<colon].lowercased()
        if SpecLimits.forbiddenSchemes.contains(scheme) {
            return error(pointer(), "forbidden-scheme", "URLs with the scheme \"\(scheme):\" are not allowed.")
        }
        if (scheme == "http" || scheme == "https"), components.host?.isEmpty ?? true {
            return error(pointer(), "invalid-url", "\"\(value)\" has no host.")
        }
        CheckedURLs.shared.insert(value)
    }
}

/// URLs that passed `url(_:_:)`, kept so the next check of the same text skips parsing it.
///
/// Rendered alerts carry the same few links again and again (a catalog's deep links), and
/// `URLComponents` parsing was most of validating a rendered alert. Bounded: when full, it is
/// emptied and fills again with the links in use.
final class CheckedURLs: @unchecked Sendable {
    static let shared = CheckedURLs(capacity: 512)

    private let lock = NSLock()
    private var urls: Set<String> = []
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func contains(_ url: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return urls.contains(url)
    }

    func insert(_ url: String) {
        lock.lock()
        defer { lock.unlock() }
        if urls.count >= capacity { urls.removeAll(keepingCapacity: true) }
        urls.insert(url)
    }
}

/// Finds a URL's scheme before it is parsed: an ASCII letter, then ASCII letters, digits, `+`,
/// `.` or `-`, up to the first `:`, in a URL with no whitespace.
enum URLScheme {
    /// The `:` that ends `value`'s scheme, or nil when it has none or has whitespace.
    ///
    /// Links are nearly always ASCII, and there each byte is a Character (a CR LF pair is
    /// whitespace either way), so they are read as UTF-8 bytes; any other text is read by
    /// Characters, as `Character` properties say.
    static func end(of value: String) -> String.Index? {
        let bytes = value.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return endByCharacters(of: value) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), let first = bytes.first, isLetter(first),
            bytes[..<colon].allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
            !bytes.contains(where: isWhitespace)
        else { return nil }
        return colon
    }

    /// `end(of:)` read Character by Character, for text that is not all ASCII.
    static func endByCharacters(of value: String) -> String.Index? {
        guard let colon = value.firstIndex(of: ":"), let first = value.first, first.isASCII, first.isLetter,
            value[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }),
            !value.contains(where: { $0.isWhitespace })
        else { return nil }
        return colon
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    /// Unicode's White_Space in ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
    private static func isWhitespace(_ byte: UInt8) -> Bool { (byte >= 0x09 && byte <= 0x0D) || byte == 0x20 }
}
