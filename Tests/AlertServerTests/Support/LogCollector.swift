import AlertServer
import Foundation
import Locking
import Logging
@testable import AlertdTestSupport
@testable import HTTPTestSupport

/// Log lines an in-process service wrote through `AlertdLogHandler`, kept for a test to read.
///
/// A request's line is written after its response went out, so a client can hold the answer
/// before the line exists: wait for it with `line(containing:)`.
final class LogCollector: Sendable {
    private let lines = Locked<[String]>([])

    /// A logger in `format` at `level`, writing here.
    func logger(_ format: LogFormat, level: Logger.Level = .info) -> Logger {
        let output = LogOutput { bytes in self.lines.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
        return Logger(label: "alertd") { _ in AlertdLogHandler(format: format, level: level, output: output) }
    }

    var all: [String] { lines.withLock { $0 } }

    /// The first line holding `text`, waiting up to `limit` for it.
    func line(containing text: String, within limit: Duration = .seconds(3)) -> String? {
        var found: String?
        _ = eventually(within: limit) {
            found = all.first { $0.contains(text) }
            return found != nil
        }
        return found
    }
}
