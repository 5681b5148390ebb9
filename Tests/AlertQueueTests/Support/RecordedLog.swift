import Foundation
import Locking
import Logging

/// What a store logged in the background (its pool's connection attempts, pings, replacements),
/// kept in memory for a failing test to show: those events happen on the pool's own tasks, out
/// of the test's sight, and are what tells a store that cannot connect from one that cannot
/// answer.
final class RecordedLog: Sendable {
    private let lines = Locked<[String]>([])
    private let started = ContinuousClock.now

    /// A logger at `level` writing here.
    func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "alertd.postgres") { label in Handler(label: label, log: self) }
        logger.logLevel = level
        return logger
    }

    /// The last `count` lines, one per line, each after the seconds since this log was made.
    func tail(_ count: Int = 40) -> String {
        lines.withLock { $0.suffix(count) }.joined(separator: "\n")
    }

    fileprivate func append(_ line: String) {
        let seconds = started.duration(to: .now).components.seconds
        lines.withLock { $0.append("\(seconds)s \(line)") }
    }

    private struct Handler: LogHandler {
        let label: String
        let log: RecordedLog
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            log.append("\(event.level) \(event.message) \(fields)")
        }
    }
}
