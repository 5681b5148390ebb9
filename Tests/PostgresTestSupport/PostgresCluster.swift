import Foundation
import PostgresNIO
import Locking
import Synchronization

/// A throwaway PostgreSQL cluster for tests: `initdb` and `pg_ctl` (as the `postgres` user when
/// the tests run as root) in a fresh temporary folder, listening on 127.0.0.1 and a free port
/// only (its Unix socket in that folder), `trust` authentication, durability off for speed.
///
/// It is removed (stopped and deleted) by `remove()`, at the exit of the process, and — should
/// the process crash or be killed — by a watchdog that notices the process is gone.
///
/// ```swift
/// let cluster = try await PostgresCluster.shared()   // one per test process, started on first use
/// let url = try await cluster.createDatabase()       // a fresh database for one test
/// let store = try PostgresQueueStore(url: url)
///
/// let own = try await PostgresCluster.make()         // a cluster of its own, to stop and start
/// try await own.stop()
/// try await own.start()
/// own.remove()
/// ```
public final class PostgresCluster: Sendable {
    /// The temporary folder: the data directory (also the socket directory) and command logs.
    public let root: URL
    public let dataDirectory: URL
    public let port: Int

    private static let sharedCluster = Locked<Task<PostgresCluster, any Error>?>(nil)
    private static let databaseCount = Atomic<Int>(0)

    /// The cluster every test of this process shares, started by the first call.
    public static func shared() async throws -> PostgresCluster {
        let task = sharedCluster.withLock { shared in
            if let shared { return shared }
            let task = Task { try await make() }
            shared = task
            return task
        }
        return try await task.value
    }

    /// A new cluster, running. Remove it with `remove()` when done (it is removed at exit anyway).
    public static func make() async throws -> PostgresCluster {
        let root = FileManager.default.temporaryDirectory.appending(path: "alertd-pg-\(UUID().uuidString)")
        let data = root.appending(path: "data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: data.path)
        if ClusterCommands.isRoot {
            try FileManager.default.setAttributes(
                [.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: data.path)
        }
        ClusterRegistry.register(data: data.path, root: root.path)
        try ClusterCommands.startWatchdog(data: data.path, root: root.path)
        do {
            try await ClusterCommands.run(
                "initdb", ["-D", data.path, "-U", "postgres", "--auth=trust", "--no-sync", "--encoding=UTF8", "--no-locale"],
                log: root.appending(path: "initdb.log"))
            // A port free a moment ago may be taken by the time the server binds it: try a few.
            var attempt = 1
            while true {
                let port = try ClusterCommands.freePort()
                let cluster = PostgresCluster(root: root, dataDirectory: data, port: port)
                do {
                    try cluster.configure()
                    try await cluster.start()
                    return cluster
                } catch where attempt < 3 {
                    attempt += 1
                }
            }
        } catch {
            ClusterRegistry.remove(data: data.path, root: root.path)
            throw error
        }
    }

    private init(root: URL, dataDirectory: URL, port: Int) {
        self.root = root
        self.dataDirectory = dataDirectory
        self.port = port
    }

    /// Appends this cluster's settings to `postgresql.conf` (the last setting of a name wins).
    private func configure() throws {
        // max_connections: the suites run at once, each store with 11 connections; at 300 a
        // full run came near the limit, and a store past it answers 503.
        let settings = """

            listen_addresses = '127.0.0.1'
            port = \(port)
            unix_socket_directories = '\(dataDirectory.path)'
            max_connections = 1000
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            log_min_messages = warning

            """
        let file = try FileHandle(forWritingTo: dataDirectory.appending(path: "postgresql.conf"))
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data(settings.utf8))
    }

    /// The URL of `database` on this cluster, as the superuser `postgres` (no password: trust).
    public func url(database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates a database with a unique name, empty or a copy of `template` (a database of this
    /// cluster nobody is connected to); returns its URL.
    public func createDatabase(template: String? = nil) async throws -> String {
        let name = "test_\(Self.databaseCount.add(1, ordering: .relaxed).newValue)_\(UUID().uuidString.prefix(8).lowercased())"
        if let template {
            guard Self.isPlainName(template) else { throw ClusterError("not a database name: \(template)") }
            try await administer("CREATE DATABASE \(unescaped: name) TEMPLATE \(unescaped: template)")
        } else {
            try await administer("CREATE DATABASE \(unescaped: name)")
        }
        return url(database: name)
    }

    /// The name of the database `url` names, when it is one this cluster could have made.
    public static func databaseName(url: String) -> String? {
        guard let name = URLComponents(string: url)?.path.dropFirst(), isPlainName(String(name)) else { return nil }
        return String(name)
    }

    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// Drops the database `url` names, closing its connections.
    public func dropDatabase(url: String) async throws {
        guard let name = Self.databaseName(url: url) else { throw ClusterError("not a database of this cluster: \(url)") }
        try await administer("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)")
    }

    /// Runs `statement` on the `postgres` database, on a connection of its own.
    public func administer(_ statement: PostgresQuery) async throws {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: port, username: "postgres", password: nil, database: "postgres", tls: .disable)
        let logger = Logger(label: "alertd.test.postgres")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.query(statement, logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Starts the server (again), and waits until it accepts connections.
    public func start() async throws {
        try await ClusterCommands.run(
            "pg_ctl", ["-D", dataDirectory.path, "-l", dataDirectory.appending(path: "server.log").path, "-w", "-t", "60", "start"],
            log: root.appending(path: "pg_ctl-start.log"))
    }

    /// Stops the server (`fast`: open connections are closed), and waits until it is down.
    public func stop() async throws {
        try await ClusterCommands.run(
            "pg_ctl", ["-D", dataDirectory.path, "-m", "fast", "-w", "-t", "60", "stop"],
            log: root.appending(path: "pg_ctl-stop.log"))
    }

    /// Stops the server at once and deletes the folder. Idempotent.
    public func remove() {
        ClusterRegistry.remove(data: dataDirectory.path, root: root.path)
    }
}
