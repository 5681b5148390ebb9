import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO
import Testing

@testable import AlertQueuePostgres

/// Wake-ups across instances: NOTIFY on every write, LISTEN on each instance, and the sweep that
/// covers lost notifications.
@Suite("PostgreSQL queue store notifications")
struct PostgresNotificationTests {
    @Test("Every write of another instance reaches the listener, with its session, in commit order")
    func writesAreHeardAcrossInstances() async throws {
        // Given: a listening instance, and another that writes
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let listening = try database.open()
        let writing = try database.open()
        let recorder = ChangeRecorder(listeningTo: listening, keptBy: database)
        #expect(await recorder.waitUntilListening())
        // When
        let item = try await writing.enqueue(alert("app/a", in: "s-enqueue"), now: t0).item
        _ = try await writing.enqueue(alert("app/a", in: "s-enqueue"), now: t0)  // a duplicate changes nothing
        _ = try await writing.next(session: "s-enqueue", now: t0)  // a delivery wakes no one
        _ = try await writing.ack(session: "s-enqueue", ticket: item.ticket, chain: nil, now: t0)
        _ = try await writing.enqueue(alert("app/b", in: "s-cancel"), now: t0)
        _ = try await writing.cancel(session: "s-cancel", ticket: nil, now: t0)
        try await writing.hold(session: "s-hold", until: at(30))
        try await writing.hold(session: "s-hold", until: nil)
        // Then
        let expected = ["s-enqueue", "s-enqueue", "s-cancel", "s-cancel", "s-hold", "s-hold"]
        #expect(await recorder.wait { _ in recorder.sessions.count >= expected.count })
        #expect(recorder.sessions == expected)
    }

    @Test("The stream of changes says .all once listening, then the sessions written")
    func changesStream() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let recorder = ChangeRecorder(listeningTo: store, keptBy: database, asStream: true)
        #expect(await recorder.waitUntilListening())
        // When
        _ = try await store.enqueue(alert("app/a", in: "streamed"), now: t0)
        // Then
        #expect(await recorder.wait { $0.count >= 2 })
        #expect(recorder.heard == [.all, .session("streamed")])
    }

    @Test("A sweep names the sessions written since the last one, by any instance, and nothing twice")
    func sweepNamesChangedSessions() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let sweeping = try database.open()
        let writing = try database.open()
        _ = try await writing.enqueue(alert("app/before", in: "earlier"), now: t0)
        let start = try await sweeping.changedSessions(since: nil)
        #expect(start.sessions.isEmpty)
        // When
        _ = try await writing.enqueue(alert("app/a", in: "s1"), now: t0)
        try await writing.hold(session: "s2", until: at(30))
        let changed = try await sweeping.changedSessions(since: start.cursor)
        // Then
        #expect(changed.sessions == ["s1", "s2"])
        #expect(try await sweeping.changedSessions(since: changed.cursor).sessions.isEmpty)
    }

    @Test("A write still uncommitted at a sweep is named by the next sweep")
    func sweepCatchesLateCommits() async throws {
        // Given: a sweep cursor, and a writer that has locked its session but not committed
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let sweeping = try database.open()
        let writing = try database.open()
        try await writing.migrate()
        let start = try await sweeping.changedSessions(since: nil)
        let (during, after) = try await writing.client.withConnection { connection in
            try await connection.query("BEGIN", logger: writing.logger)
            _ = try await writing.lockSession("late", withSequence: false, on: connection)
            // When a sweep runs meanwhile, then the commit after it
            let during = try await sweeping.changedSessions(since: start.cursor)
            try await connection.query("COMMIT", logger: writing.logger)
            let after = try await sweeping.changedSessions(since: during.cursor)
            return (during, after)
        }
        // Then
        #expect(during.sessions.isEmpty)
        #expect(after.sessions == ["late"])
    }
}
