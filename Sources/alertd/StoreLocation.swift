import Foundation

/// Where the session queues are kept, as given by `--store`.
enum StoreLocation: Equatable, CustomStringConvertible {
    /// In this process only: lost on exit. For tests and demos.
    case memory
    /// An SQLite database file.
    case sqlite(path: String)

    static let usage = "memory or sqlite:PATH"

    /// Parses `memory` or `sqlite:PATH`; a reason when the text is neither or the path is unusable.
    static func parse(_ text: String) -> Result<StoreLocation, StoreLocationError> {
        if text == "memory" { return .success(.memory) }
        guard text.hasPrefix("sqlite:") else {
            return .failure(StoreLocationError(message: "--store: expected \(usage), got \"\(text)\""))
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

    var description: String {
        switch self {
        case .memory: "memory"
        case .sqlite(let path): "sqlite:\(path)"
        }
    }
}

struct StoreLocationError: Error {
    let message: String
}
