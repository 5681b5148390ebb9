import AlertQueue
import Foundation
import Testing

/// A kind of queue store the contract suite runs against. Adding a store is adding one entry
/// to `all` (a PostgreSQL factory would open a fresh schema and drop it in `remove`).
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether a store opened again on the same place sees what an earlier one wrote.
    let persists: Bool
    /// Makes an empty place for one test's queues.
    let makePlace: @Sendable (QueueSettings) throws -> StorePlace

    var testDescription: String { name }

    static let all: [StoreFactory] = [.memory, .sqliteFile]

    static var persistent: [StoreFactory] { all.filter(\.persists) }

    static let memory = StoreFactory(name: "memory", persists: false) { settings in
        let store = try SQLiteQueueStore.inMemory(settings: settings)
        return StorePlace(open: { store }, remove: {})
    }

    static let sqliteFile = StoreFactory(name: "sqlite", persists: true) { settings in
        let directory = FileManager.default.temporaryDirectory.appending(path: "alertd-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appending(path: "queue.sqlite").path
        return StorePlace(
            open: { try SQLiteQueueStore(path: path, settings: settings) },
            remove: { try? FileManager.default.removeItem(at: directory) })
    }

    /// Runs `body` with a store on a fresh place, removed afterwards.
    func withStore<T>(
        _ settings: QueueSettings = QueueSettings(), _ body: (any QueueStore) async throws -> T
    ) async throws -> T {
        try await withPlace(settings) { place in try await body(place.open()) }
    }

    /// Runs `body` with a fresh place, on which it may open several stores.
    func withPlace<T>(_ settings: QueueSettings = QueueSettings(), _ body: (StorePlace) async throws -> T) async throws -> T {
        let place = try makePlace(settings)
        defer { place.remove() }
        return try await body(place)
    }
}

/// Where one test's queues live. `open` gives a store on it: for a persistent store a new
/// instance over the same data each time; for the memory store, the one store.
struct StorePlace: Sendable {
    let open: @Sendable () throws -> any QueueStore
    let remove: @Sendable () -> Void
}
