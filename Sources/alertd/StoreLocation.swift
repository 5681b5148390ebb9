import AlertQueuePostgres
import Foundation

/// Where the session queues are kept, as given by `--store`.
enum StoreLocation: Equatable, CustomStringConvertible {
    /// In this process only: lost on exit. For tests and demos.
    case memory
    /// An SQLite database file.
    case sqlite(path: String)
    /// A PostgreSQL database, shared by every instance given the same URL.
    case postgres(PostgresEndpoint)

    static let usage = "memory, sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DATABASE"

    /// Parses `memory`, `sqlite:PATH` or a `postgres://` (`postgresql://`) URL; a reason when the
    /// text is none of them or names something unusable. No message shows a password.
    static func parse(_ text: String) -> Result<StoreLocation, StoreLocationError> {
        if text == "memory" { return .success(.memory) }
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            do {
                return .success(.postgres(try PostgresEndpoint(url: text)))
            } catch {
                return .failure(StoreLocationError(message: "--store: \(error)"))
            }
        }
        guard text.hasPrefix("sqlite:") else {
            return .failure(StoreLocationError(message: "--store: expected \(usage), got \"\(redacted(text))\""))
        }
        let path = String(text.dropFirst("sqlite:".count))
        guard !path.isEmpty else { return .failure(StoreLocationError(message: "--store: sqlite: needs a file path")) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return .failure(StoreLocationError(message: "--store: the folder \(folder) of \(path) does not exist"))
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            return .failure(StoreLocationError(message: "--store: the folder \(folder) of \(path) is not writable"))
        }
        return .success(.sqlite(path: path))
    }

    /// `text` for a message: what looks like a URL's password (between `://user:` and `@`) hidden,
    /// in case a URL with a mistyped scheme was given.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return text[..<text.index(after: colon)] + "***" + text[at...]
    }

    var description: String {
        switch self {
        case .memory: "memory"
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let endpoint): endpoint.redacted
        }
    }
}

struct StoreLocationError: Error {
    let message: String
}
