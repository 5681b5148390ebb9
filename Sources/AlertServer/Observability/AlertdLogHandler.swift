import Glibc
import Logging

/// alertd's swift-log handler: one line per event, in `LogFormat.text` or `.json`, written to
/// standard error (standard output carries only `alertd listening on …`, which supervisors and
/// tests read) or wherever `LogOutput` says.
///
/// Cheap by design: the line is formatted once into one byte array (the timestamp by hand, see
/// `UTCTimestamp`) and written with one `write(2)`, no lock — lines up to `PIPE_BUF` (4 KiB)
/// never interleave on a pipe.
///
/// ```swift
/// LoggingSystem.bootstrap { label in AlertdLogHandler(format: .json, level: .info) }
/// Logger(label: "alertd").info("listening", metadata: ["port": "8080"])
/// // {"time":"2026-11-21T15:17:46.123456Z","level":"info","message":"listening","port":"8080"}
/// ```
public struct AlertdLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public let format: LogFormat
    public let output: LogOutput

    public init(format: LogFormat, level: Logger.Level, output: LogOutput = .standardError) {
        self.format = format
        self.logLevel = level
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // A request line's metadata as it is: the handler's own is empty and no provider is
        // set in alertd, so nothing is copied or rehashed on that path.
        var merged = event.metadata ?? [:]
        if !metadata.isEmpty { merged.merge(metadata) { given, _ in given } }
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { given, _ in given } }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        output.write(format.line(level: event.level, message: event.message.description, metadata: merged))
    }
}

/// Where log lines go: a file descriptor, or (in tests) a closure.
public struct LogOutput: Sendable {
    let write: @Sendable ([UInt8]) -> Void

    public init(_ write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
    }

    /// Standard error, one `write(2)` per line (retried after a partial write or EINTR).
    public static let standardError = LogOutput { line in
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // nowhere to report it; a log must never stop the server
                }
            }
        }
    }
}
