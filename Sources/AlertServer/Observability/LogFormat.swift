import Logging

/// How `AlertdLogHandler` writes a line.
///
/// - `text`: `TIME LEVEL MESSAGE key=value …`, for people. A value with a blank, `"`, `=` or
///   `\` is quoted, with `"` and `\` escaped.
/// - `json`: one JSON object per line, `{"time":…,"level":…,"message":…,"key":value,…}`, for log
///   pipelines. Integers and durations are JSON numbers, everything else a string.
///
/// In both, control characters are written as escapes (`\n`, `\u001b`): a line is one line,
/// whatever a client put in a path or a header. Metadata keys come in a fixed order for the keys
/// alertd uses (`LogFormat.keyOrder`), then the others sorted.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json

    /// The keys of request lines and lifecycle events, in the order they are written.
    static let keyOrder = [
        "method", "path", "status", "bytes", "duration_ms", "request_id", "route",
        "host", "port", "url", "store", "catalogs", "threads", "open_files", "file", "cause",
    ]

    /// One line (with its newline) for `level`, `message` and `metadata`.
    func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(192)
        switch self {
        case .text:
            UTCTimestamp.append(to: &line)
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: level.rawValue.utf8)
            line.append(UInt8(ascii: " "))
            LogEscaping.appendText(message, quoted: false, to: &line)
            Self.forEachOrdered(metadata) { key, value in
                line.append(UInt8(ascii: " "))
                LogEscaping.appendText(key, quoted: false, to: &line)
                line.append(UInt8(ascii: "="))
                let text = value.description
                LogEscaping.appendText(text, quoted: LogEscaping.needsQuotes(text), to: &line)
            }
        case .json:
            line.append(contentsOf: #"{"time":""#.utf8)
            UTCTimestamp.append(to: &line)
            line.append(contentsOf: #"","level":""#.utf8)
            line.append(contentsOf: level.rawValue.utf8)
            line.append(contentsOf: #"","message":"#.utf8)
            LogEscaping.appendJSONString(message, to: &line)
            Self.forEachOrdered(metadata) { key, value in
                line.append(UInt8(ascii: ","))
                LogEscaping.appendJSONString(key, to: &line)
                line.append(UInt8(ascii: ":"))
                Self.appendJSON(value, to: &line)
            }
            line.append(UInt8(ascii: "}"))
        }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Calls `body` with the metadata in `keyOrder`, then the rest by key. A request line's keys
    /// lead `keyOrder`, so it takes one lookup per key and stops; nothing is copied or sorted
    /// (the values are existentials: costly to move).
    private static func forEachOrdered(_ metadata: Logger.Metadata, _ body: (String, Logger.MetadataValue) -> Void) {
        var seen = 0
        for key in keyOrder {
            guard seen < metadata.count else { return }
            if let value = metadata[key] {
                body(key, value)
                seen += 1
            }
        }
        guard seen < metadata.count else { return }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where rank[key] == nil { body(key, value) }
    }

    private static let rank = Dictionary(uniqueKeysWithValues: keyOrder.enumerated().map { ($1, $0) })

    private static func appendJSON(_ value: Logger.MetadataValue, to line: inout [UInt8]) {
        switch value {
        case .string(let text):
            LogEscaping.appendJSONString(text, to: &line)
        case .stringConvertible(let number as any BinaryInteger):
            line.append(contentsOf: number.description.utf8)
        case .stringConvertible(let duration as Milliseconds):
            line.append(contentsOf: duration.description.utf8)
        case .stringConvertible(let other):
            LogEscaping.appendJSONString(other.description, to: &line)
        case .array(let values):
            line.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                appendJSON(element, to: &line)
            }
            line.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            line.append(UInt8(ascii: "{"))
            for (index, (key, element)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                LogEscaping.appendJSONString(key, to: &line)
                line.append(UInt8(ascii: ":"))
                appendJSON(element, to: &line)
            }
            line.append(UInt8(ascii: "}"))
        }
    }
}

/// A duration in milliseconds with microsecond precision (`0.412`): a number in JSON lines.
struct Milliseconds: CustomStringConvertible, Sendable {
    let nanoseconds: UInt64

    var description: String {
        let micros = nanoseconds / 1000
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
