import AlertQueue
import AlertSpec
import Foundation
import PostgresTestSupport
import TestExecutors
import Testing

@testable import AlertQueuePostgres

/// The database going away and coming back. Each test stops and starts a cluster of its own, so
/// the tests sharing the process's cluster carry on.
@Suite("PostgreSQL queue store failures", .ownThread)
struct PostgresFailureTests {
    /// Options of a store that gives up quickly on calls, but not on connecting: a refused
    /// connection (the database down) fails at once anyway, and a fresh cluster on a loaded
    /// machine took longer than the default 2 s to accept one, every time, for 30 s (CI).
    static let impatient = PostgresQueueStore.Options(
        clock: .caller, maximumConnections: 2, requestTimeout: .seconds(2), reachabilityTimeout: .seconds(10),
        connectTimeout: .seconds(10))

    @Test("While the database is down calls are unavailable (503) and it is not reachable; then it recovers by itself")
    func unavailableThenRecovered() async throws {
        // Given: a store that has worked
        let cluster = try await PostgresCluster.make()
        defer { cluster.remove() }
        let database = try await PostgresTestDatabase.make(on: cluster)
        defer { database.remove() }
        // The schema first, patiently: under a loaded CI the impatient store's first call, which
        // migrates, stayed unavailable for 30 s (three fresh-clone runs; never alone).
        try await database.open().migrate()
        let log = RecordedLog()
        let store = try database.open(options: Self.impatient, logger: log.logger())
        let queued = try await Self.retrying("the first enqueue", for: .seconds(90), log: log) {
            try await store.enqueue(alert("app/a"), now: t0)
        }.item
        #expect(await store.isReachable())
        // When the database stops
        try await cluster.stop()
        // Then every call says unavailable, and readiness says no
        #expect(await !store.isReachable())
        let errors = await [
            Self.error { _ = try await store.enqueue(alert("app/b"), now: t0) },
            Self.error { _ = try await store.next(session: session, now: t0) },
            Self.error { _ = try await store.items(session: session, now: t0) },
            Self.error { _ = try await store.ack(session: session, ticket: queued.ticket, chain: nil, now: t0) },
            Self.error { try await store.hold(session: session, until: at(30)) },
        ]
        for error in errors {
            #expect(error?.kind == .unavailable)
            #expect(error?.code == "store-unavailable")
        }
        // When it starts again, then the store serves again by itself, with what it had
        try await cluster.start()
        #expect(await Self.recovers(store))
        #expect(
            try await Self.retrying("next after the restart", log: log) { try await store.next(session: session, now: t0) }?.ticket
                == queued.ticket)
    }

    @Test("A store whose database never answered is unavailable, not stuck")
    func neverReachable() async throws {
        // Given: nothing listens on port 1
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try PostgresQueueStore(url: "postgres://nobody@127.0.0.1:1/none?sslmode=disable", options: Self.impatient)
        database.keep(Task(executorPreference: OwnThread()) { await store.run() })
        // Then
        #expect(await !store.isReachable())
        let error = await Self.error { _ = try await store.enqueue(alert("app/a"), now: t0) }
        #expect(error?.kind == .unavailable)
        await #expect(throws: QueueError.self) { try await store.migrate() }
    }

    @Test("The listener listens again after the database restarts, says so, and hears writes again")
    func listenerReconnects() async throws {
        // Given: a listening instance and a writing one
        let cluster = try await PostgresCluster.make()
        defer { cluster.remove() }
        let database = try await PostgresTestDatabase.make(on: cluster)
        defer { database.remove() }
        try await database.open().migrate()  // patiently, as above
        let listening = try database.open(options: Self.impatient)
        let writing = try database.open(options: Self.impatient)
        let recorder = ChangeRecorder(listeningTo: listening, keptBy: database)
        #expect(await recorder.waitUntilListening(times: 1))
        // When the database restarts
        try await cluster.stop()
        try await cluster.start()
        // Then the listener says everything may have changed once it listens again
        #expect(await recorder.waitUntilListening(times: 2))
        // and hears the next write
        #expect(await Self.recovers(writing))
        _ = try await Self.retrying("an enqueue after the restart") { try await writing.enqueue(alert("app/a", in: "after-restart"), now: t0) }
        #expect(await recorder.wait { _ in recorder.sessions.contains("after-restart") })
    }

    /// The `QueueError` `body` throws, if it throws one.
    static func error(_ body: () async throws -> Void) async -> QueueError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? QueueError
        }
    }

    /// `body`'s result, tried again (for up to `limit`) while the store answers 503: for
    /// the steps around an outage that are not what a test is about, which the impatient
    /// options' 2 s timeouts would fail on a machine busy with the rest of the suite.
    /// A failure shows the 503s' reasons and the last lines of `log`, the store's background log.
    static func retrying<T>(
        _ step: String, for limit: Duration = .seconds(30), log: RecordedLog? = nil, _ body: () async throws -> T
    ) async throws -> T {
        // Bounded by time, not by tries: while a fresh or restarted cluster on a loaded machine
        // takes seconds to accept connections, each try fails fast (15 tries once ran out).
        // The reasons of the 503s met on the way (QueueError's description leaves them out), in
        // the order first met, each with how often: what a failure report needs to be diagnosed.
        var reasons: [(reason: String, count: Int)] = []
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            do {
                return try await body()
            } catch let error as QueueError where error.kind == .unavailable {
                let reason = String(reflecting: error)
                if let index = reasons.firstIndex(where: { $0.reason == reason }) {
                    reasons[index].count += 1
                } else {
                    reasons.append((reason, 1))
                }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        do {
            return try await body()
        } catch {
            let met = reasons.map { "\($0.count) × \($0.reason)" }.joined(separator: "; ")
            Issue.record(
                """
                \(step): still \(String(reflecting: error)) after \(limit); on the way: \(met)
                the store's log:
                \(log?.tail() ?? "(not recorded)")
                """)
            throw error
        }
    }

    /// Whether `store` serves again within a bounded number of tries (the pool reconnects with
    /// its own backoff; this bounds the wait so a store that never recovers fails the test).
    static func recovers(_ store: PostgresQueueStore, attempts: Int = 120) async -> Bool {
        for _ in 0..<attempts {
            if await store.isReachable(), (try? await store.items(session: session, now: t0)) != nil { return true }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return false
    }
}
