import AlertQueue
import AlertQueueSQLite
import AlertQueuePostgres
import Foundation
import PostgresTestSupport
import Locking
import Logging
import TestExecutors
import Testing

/// A kind of queue store the contract suite runs against. Adding a store is adding one entry
/// to `all`.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether a store opened again on the same place sees what an earlier one wrote.
    let persists: Bool
    /// Makes an empty place for one test's queues.
    let makePlace: @Sendable (QueueSettings) async throws -> StorePlace

    var testDescription: String { name }

    static let all: [StoreFactory] = [.memory, .sqliteFile, .postgres]

    static var persistent: [StoreFactory] { all.filter(\.persists) }

    static let memory = StoreFactory(name: "memory", persists: false) { settings in
        let store = try SQLiteQueueStore.inMemory(settings: settings)
        return StorePlace(open: { store }, remove: {})
    }

    static let sqliteFile = StoreFactory(name: "sqlite", persists: true) { settings in
        let (path, remove) = try temporaryDatabasePath()
        // `process`: the contract is about semantics, and a flush per commit would slow every test
        return StorePlace(open: { try SQLiteQueueStore(path: path, settings: settings, durability: .process) }, remove: remove)
    }

    /// A fresh database on the test process's throwaway cluster; every store opened on it runs
    /// its pool until the place is removed, which drops the database. The caller's clock, as the
    /// suite drives time with explicit instants.
    static let postgres = StoreFactory(name: "postgres", persists: true) { settings in
        let database = try await PostgresTestDatabase.make()
        return StorePlace(
            open: { try database.open(settings: settings) },
            remove: { database.remove() })
    }

    /// Runs `body` with a store on a fresh place, removed afterwards.
    func withStore<T>(
        _ settings: QueueSettings = QueueSettings(), _ body: (any QueueStore) async throws -> T
    ) async throws -> T {
        try await withPlace(settings) { place in try await body(place.open()) }
    }

    /// Runs `body` with a fresh place, on which it may open several stores.
    func withPlace<T>(_ settings: QueueSettings = QueueSettings(), _ body: (StorePlace) async throws -> T) async throws -> T {
        let place = try await makePlace(settings)
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

/// A fresh database of the shared test cluster, and the stores opened on it with their pools
/// running.
final class PostgresTestDatabase: Sendable {
    let cluster: PostgresCluster
    let url: String
    private let runs = Locked<[Task<Void, Never>]>([])

    private init(cluster: PostgresCluster, url: String) {
        self.cluster = cluster
        self.url = url
    }

    /// A new database on the shared cluster, with the schema in place (a copy of `migrated`) or
    /// empty; on `cluster`, empty.
    static func make(on cluster: PostgresCluster? = nil, schema: Bool = true) async throws -> PostgresTestDatabase {
        if let cluster { return PostgresTestDatabase(cluster: cluster, url: try await cluster.createDatabase()) }
        let shared = try await PostgresCluster.shared()
        let template = schema ? try await migrated() : nil
        return PostgresTestDatabase(cluster: shared, url: try await shared.createDatabase(template: template))
    }

    /// A database of the shared cluster migrated once, for the others to be copied from: every
    /// suite makes its databases as the run starts, and as many migrations side by side (each
    /// a few hundred statements) kept the two cores busy past the calls' 30 s.
    private static func migrated() async throws -> String {
        let task = template.withLock { current in
            if let current { return current }
            let task = Task {
                let cluster = try await PostgresCluster.shared()
                let url = try await cluster.createDatabase()
                let store = try PostgresQueueStore(url: url, options: patient)
                let run = Task(executorPreference: OwnThread()) { await store.run() }
                defer { run.cancel() }
                try await store.migrate()
                // Nobody may be connected to a template while it is copied.
                run.cancel()
                await run.value
                return try #require(PostgresCluster.databaseName(url: url))
            }
            current = task
            return task
        }
        do {
            return try await task.value
        } catch {
            template.withLock { current in
                if current == task { current = nil }
            }
            throw error
        }
    }

    private static let template = Locked<Task<String, any Error>?>(nil)

    /// A store on the database with its pool running (until `remove()`): caller's clock, a small
    /// pool that opens connections as calls need them (the suite's stores, all opening every
    /// connection at start as a service's do, made the shared cluster and the machine refuse
    /// calls: 503s in the multi-instance tests), and patient timeouts — the whole test suite
    /// runs at once on two cores, and a test that is not about an unreachable database must not
    /// fail because the machine is busy.
    func open(
        settings: QueueSettings = QueueSettings(),
        options: PostgresQueueStore.Options = PostgresTestDatabase.patient, logger: Logger? = nil
    ) throws -> PostgresQueueStore {
        let store = try PostgresQueueStore(url: url, settings: settings, options: options, logger: logger)
        keep(Task(executorPreference: OwnThread()) { await store.run() })
        return store
    }

    static let patient = PostgresQueueStore.Options(
        clock: .caller, maximumConnections: 4, minimumConnections: 0, requestTimeout: .seconds(30), reachabilityTimeout: .seconds(10),
        connectTimeout: .seconds(10))

    /// Keeps `task` running until `remove()` (a pool, a listener).
    func keep(_ task: Task<Void, Never>) {
        runs.withLock { $0.append(task) }
    }

    /// Stops every pool and listener, and drops the database in the background.
    func remove() {
        for task in runs.withLock({ $0 }) { task.cancel() }
        let cluster = cluster
        let url = url
        Task { try? await cluster.dropDatabase(url: url) }
    }
}
