import Foundation

/// A database file's path in a new temporary folder, and what removes the folder.
func temporaryDatabasePath() throws -> (path: String, remove: @Sendable () -> Void) {
    let directory = FileManager.default.temporaryDirectory.appending(path: "alertd-sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return (directory.appending(path: "queue.sqlite").path, { try? FileManager.default.removeItem(at: directory) })
}
