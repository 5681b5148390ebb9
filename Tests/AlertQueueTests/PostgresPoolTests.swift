import AlertQueue
import Foundation
import PostgresNIO
import PostgresTestSupport
import TestExecutors
import Testing

@testable import AlertQueuePostgres

/// The store's connection pool: idle connections serve whatever the other slots do, every slot
/// reopens its connection, and idle connections are pinged.
@Suite("PostgreSQL queue store pool", .ownThread)
struct PostgresPoolTests {
    @Test("Every connection of the pool is opened and pinged every keep-alive interval")
    func idleConnectionsArePinged() async throws {
        // Given: a store with three connections, pinged every second, and nothing to do
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.options(connections: 3, keepAlive: .seconds(1)))
        try await store.migrate()
        let observer = try await Observer(store)
        defer { observer.close() }
        // When: a few intervals pass; then all three connections' last statement is the ping,
        // and the pings go on
        let seen = try await observer.pings { $0.count == 3 }
        #expect(seen.count == 3)
        let later = try await observer.pings { $0.last > seen.last }
        #expect(later.last > seen.last)
    }

    @Test("An open connection serves every call while the pool's other connection is refused")
    func idleConnectionServesWhileAnotherIsRefused() async throws {
        // Given: a role that may hold one connection, owning the database, and a store of two
        // connections as that role: its second connection is refused, again and again (the
        // database empty, so that the role's store makes the schema, and owns it)
        let database = try await PostgresTestDatabase.make(schema: false)
        defer { database.remove() }
        let role = "limited_\(UUID().uuidString.prefix(8).lowercased())"
        let name = try #require(PostgresCluster.databaseName(url: database.url))
        try await database.cluster.administer("CREATE ROLE \(unescaped: role) LOGIN CONNECTION LIMIT 1")
        try await database.cluster.administer("ALTER DATABASE \(unescaped: name) OWNER TO \(unescaped: role)")
        let url = database.url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://\(role)@")
        let log = RecordedLog()
        let store = try PostgresQueueStore(url: url, options: Self.options(connections: 2), logger: log.logger())
        database.keep(Task(executorPreference: OwnThread()) { await store.run() })
        // When: calls come one after another (postgres-nio's pool queued them all behind the
        // refused connection: each gave up as unavailable)
        for index in 0..<20 {
            _ = try await store.enqueue(alert("app/a\(index)"), now: t0)
        }
        // Then: all were served, and the refusals did happen
        #expect(try await store.items(session: session, now: t0).count == 20)
        #expect(log.tail(200).contains("too many connections for role"))
    }

    @Test("Connections the server ends are reopened, and calls go on")
    func endedConnectionsAreReopened() async throws {
        // Given: a store with three open connections
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.options(connections: 3))
        try await store.migrate()
        let observer = try await Observer(store)
        defer { observer.close() }
        let before = try await observer.backends(count: 3)
        // When the server ends them all
        try await observer.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(\(before))")
        // Then three others take their places, and calls are served
        let after = try await observer.backends(count: 3, excluding: before)
        #expect(Set(after).isDisjoint(with: before))
        #expect(try await store.enqueue(alert("app/after"), now: t0).created)
    }

    @Test("A connection whose server goes silent is closed at its ping and replaced")
    func silentConnectionIsReplaced() async throws {
        // Given: a store with two connections, pinged every second within 1 s
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.options(connections: 2, keepAlive: .seconds(1), pingTimeout: .seconds(1)))
        try await store.migrate()
        let observer = try await Observer(store)
        defer { observer.close() }
        let before = try await observer.backends(count: 2)
        // When one backend stops answering without closing its socket (SIGSTOP: the process is
        // frozen, as a vanished host would be)
        let silent = before[0]
        try Self.signal("STOP", silent)
        defer { try? Self.signal("CONT", silent) }
        // Then a new connection takes its place, and calls are served
        let replaced = try await observer.backends(count: 2, excluding: [silent])
        #expect(!replaced.contains(silent))
        #expect(try await store.enqueue(alert("app/after"), now: t0).created)
    }

    @Test("Calls that give up while waiting for a connection leave nothing behind, and the next is served")
    func abandonedWaits() async throws {
        // Given: a store of one connection, held by a call until the test says
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.options(connections: 1))
        try await store.migrate()
        let (held, holds) = AsyncStream<Void>.makeStream()
        let (done, finish) = AsyncStream<Void>.makeStream()
        let holding = Task {
            try await store.pool.withConnection { _ in
                holds.yield()
                for await _ in done { break }
            }
        }
        for await _ in held { break }
        // When: calls give up after 20 ms each, while it holds the connection
        var abandoned = 0
        for _ in 0..<20 {
            do {
                _ = try await withDeadline(.milliseconds(20)) { try await store.pool.query("SELECT 1") }
            } catch is DeadlineExceeded {
                abandoned += 1
            }
        }
        finish.yield()
        try await holding.value
        // Then: they all gave up, the next call is served, and nothing of theirs is left
        #expect(abandoned == 20)
        #expect(try await store.pool.query("SELECT 1").count == 1)
        let left = store.pool.waitingBookkeeping
        #expect(left.waiters == 0 && left.announced == 0 && left.cancelled == 0)
    }

    static func options(
        connections: Int, keepAlive: Duration = .seconds(10), pingTimeout: Duration = .seconds(10)
    ) -> PostgresQueueStore.Options {
        var options = PostgresTestDatabase.patient
        options.maximumConnections = connections
        options.minimumConnections = connections
        options.keepAliveInterval = keepAlive
        options.reachabilityTimeout = pingTimeout
        return options
    }

    static func signal(_ name: String, _ pid: Int) throws {
        let number = ["STOP": SIGSTOP, "CONT": SIGCONT][name]
        guard let number, kill(pid_t(pid), number) == 0 else { throw CancellationError() }
    }

    /// A connection of the test's own to the store's database, to watch the pool's backends.
    struct Observer {
        let connection: PostgresConnection
        let logger: Logger

        init(_ store: PostgresQueueStore) async throws {
            logger = store.logger
            connection = try await PostgresConnection.connect(
                configuration: store.endpoint.connectionConfiguration(), id: 9_998, logger: store.logger)
        }

        /// Closes the connection, which it keeps until closed (one must not go unclosed).
        func close() {
            let connection = connection
            Task { try? await connection.close() }
        }

        func run(_ query: PostgresQuery) async throws {
            _ = try await connection.query(query, logger: logger).collect()
        }

        /// How many of the pool's connections last ran the ping, and when the latest began, once
        /// `condition` holds for them (looked at every 200 ms, for up to 20 s: the pool pings on
        /// its own timer, in real time).
        func pings(until condition: ((count: Int, last: Double)) -> Bool) async throws -> (count: Int, last: Double) {
            var seen = (count: 0, last: 0.0)
            for _ in 0..<100 {
                let rows = try await connection.query(
                    """
                    SELECT count(*)::int, coalesce(max(extract(epoch FROM query_start)), 0)::float8 FROM pg_stat_activity
                    WHERE datname = current_database() AND application_name = 'alertd' AND query = 'SELECT 1'
                    """, logger: logger
                ).collect()
                seen = try rows[0].decode((Int, Double).self)
                if condition(seen) { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            return seen
        }

        /// The pids of the pool's backends once there are `count` of them besides `excluded`
        /// (waiting up to 30 s for it).
        func backends(count: Int, excluding excluded: [Int] = []) async throws -> [Int] {
            var pids: [Int] = []
            for _ in 0..<150 {
                let rows = try await connection.query(
                    """
                    SELECT pid FROM pg_stat_activity
                    WHERE datname = current_database() AND application_name = 'alertd' AND NOT pid = ANY(\(excluded))
                    ORDER BY pid
                    """, logger: logger
                ).collect()
                pids = try rows.map { try $0.decode(Int.self) }
                if pids.count == count { return pids }
                try await Task.sleep(for: .milliseconds(200))
            }
            Issue.record("the pool's backends besides \(excluded): \(pids), not \(count)")
            return pids
        }
    }
}
