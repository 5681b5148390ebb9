import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO
import Synchronization
import TestExecutors
import Testing

@testable import AlertQueuePostgres

/// Wake-ups across instances: NOTIFY on every write, LISTEN on each instance, and the sweep that
/// covers lost notifications.
@Suite("PostgreSQL queue store notifications", .ownThread)
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
        // When: each write's notification sent before the next write (else writes in quick
        // succession share one, and a session there is named once)
        let item = try await writing.enqueue(alert("app/a", in: "s-enqueue"), now: t0).item
        await writing.flushNotifications()
        _ = try await writing.enqueue(alert("app/a", in: "s-enqueue"), now: t0)  // a duplicate changes nothing
        await writing.flushNotifications()
        _ = try await writing.next(session: "s-enqueue", now: t0)  // a delivery wakes no one
        await writing.flushNotifications()
        _ = try await writing.ack(session: "s-enqueue", ticket: item.ticket, chain: nil, now: t0)
        await writing.flushNotifications()
        _ = try await writing.enqueue(alert("app/b", in: "s-cancel"), now: t0)
        await writing.flushNotifications()
        _ = try await writing.cancel(session: "s-cancel", ticket: nil, now: t0)
        await writing.flushNotifications()
        try await writing.hold(session: "s-hold", until: at(30))
        await writing.flushNotifications()
        try await writing.hold(session: "s-hold", until: nil)
        // Then
        let expected = ["s-enqueue", "s-enqueue", "s-cancel", "s-cancel", "s-hold", "s-hold"]
        #expect(await recorder.wait { _ in recorder.sessions.count >= expected.count })
        #expect(recorder.sessions == expected)
    }

    @Test("Many sessions written at once travel many to a notification, each payload under PostgreSQL's limit, and each is heard")
    func manySessionsPerNotification() async throws {
        // Given: a listening instance, and another that writes
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let listening = try database.open()
        let writing = try database.open()
        let recorder = ChangeRecorder(listeningTo: listening, keptBy: database)
        #expect(await recorder.waitUntilListening())
        // When: 200 enqueues at once, each in a session whose id has the longest length the
        // HTTP API allows (128), so that the batches' sessions fill more than one payload
        let sessions = (0..<200).map { index in "s\(index)-" + String(repeating: "x", count: 122 - String(index).count) + ":end" }
        #expect(sessions.allSatisfy { $0.count == 128 })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for session in sessions {
                group.addTask { _ = try await writing.enqueue(alert("app/a", in: session), now: t0) }
            }
            try await group.waitForAll()
        }
        // Then: every session is heard, once
        #expect(await recorder.wait { _ in Set(recorder.sessions).count >= sessions.count })
        #expect(recorder.sessions.sorted() == sessions.sorted())
        // And the payloads themselves: one per line, as few as fit under the limit
        let payloads = ChangeNotifier.payloads(for: sessions)
        #expect(payloads.count == 4)  // 7,900 bytes hold 61 lines of 129
        #expect(payloads.allSatisfy { $0.utf8.count <= ChangeNotifier.payloadLimit })
        #expect(payloads.flatMap(ChangeNotifier.sessions(inPayload:)) == sessions)
        #expect(ChangeNotifier.payloads(for: ["a"]) == ["a"])
        #expect(ChangeNotifier.payloads(for: []) == [])
    }

    @Test("Writes after a NOTIFY wait for the spacing and share the next one; a flush sends it at once")
    func spacedNotifications() async throws {
        // Given: a plain LISTEN on the channel, and a writer whose NOTIFYs are an hour apart
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        var options = PostgresTestDatabase.patient
        options.notificationSpacing = .seconds(3600)
        let writing = try database.open(options: options)
        try await writing.migrate()
        let heard = try await RawListener.listening(on: writing, keptBy: database)
        // When: a write, then three sessions written one after another, the first again
        _ = try await writing.enqueue(alert("app/a", in: "first"), now: t0)
        #expect(await heard.wait { !$0.isEmpty })
        _ = try await writing.enqueue(alert("app/b", in: "second"), now: t0)
        _ = try await writing.enqueue(alert("app/c", in: "first"), now: t0)
        _ = try await writing.enqueue(alert("app/a", in: "third"), now: t0)
        // Then: the first write went out at once; the others wait: nothing else has gone out
        // by the time a later notification comes back
        #expect(try await heard.heardAllSentBefore(marker: "marker"))
        #expect(heard.payloads == ["first", "marker"])
        // When: flushed
        await writing.flushNotifications()
        // Then: they went together, in the order they were first written, each session once
        #expect(await heard.wait { $0.count >= 3 })
        #expect(heard.payloads == ["first", "marker", "second\nfirst\nthird"])
        // And a flush with nothing gathered returns at once
        await writing.flushNotifications()
    }

    @Test("An instance no other instance listens to sends no NOTIFY; once one listens, it does")
    func notifiesOnlyWhenOthersListen() async throws {
        // Given: a plain LISTEN on the channel (not an instance's), and a writer whose sweep
        // found no other instance listening
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let writing = try database.open()
        try await writing.migrate()
        let heard = try await RawListener.listening(on: writing, keptBy: database)
        let start = try await writing.changedSessions(since: nil)
        // When: it enqueues alone, then another instance listens (and says so, which a writer
        // that listens hears at once; this one learns it at its next sweep)
        _ = try await writing.enqueue(alert("app/a", in: "alone"), now: t0)
        let other = try database.open()
        let recorder = ChangeRecorder(listeningTo: other, keptBy: database)
        #expect(await recorder.waitUntilListening())
        _ = try await writing.changedSessions(since: start.cursor)
        _ = try await writing.enqueue(alert("app/a", in: "heard"), now: t0)
        // Then: only the second was notified (notifications arrive in commit order)
        #expect(await recorder.wait { _ in recorder.sessions.contains("heard") })
        #expect(await heard.wait { $0.contains("heard") })
        #expect(heard.payloads == ["heard"])
        #expect(recorder.sessions == ["heard"])
    }

    @Test("A listening instance hears another start listening, and notifies it from then on without a sweep")
    func hearsAnotherStartListening() async throws {
        // Given: a writer that listens, and whose sweep found no other instance listening
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let writing = try database.open()
        try await writing.migrate()
        let own = ChangeRecorder(listeningTo: writing, keptBy: database)
        #expect(await own.waitUntilListening())
        _ = try await writing.changedSessions(since: nil)
        let alone = !writing.notifier.othersListen.load(ordering: .relaxed)
        #expect(alone)
        // When: another instance starts listening, and the writer enqueues
        let other = try database.open()
        let recorder = ChangeRecorder(listeningTo: other, keptBy: database)
        #expect(await recorder.waitUntilListening())
        for _ in 0..<500 where !writing.notifier.othersListen.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(10)) }
        _ = try await writing.enqueue(alert("app/a", in: "told"), now: t0)
        // Then
        #expect(await recorder.wait { _ in recorder.sessions == ["told"] })
        #expect(await own.wait { _ in own.sessions == ["told"] })
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
        // Then: `.all` first; more `.all`s only if the listening connection was lost and made
        // again meanwhile (a loaded run), which the contract allows
        #expect(await recorder.wait { $0.contains(.session("streamed")) })
        #expect(recorder.heard.first == .all)
        #expect(recorder.heard.filter { $0 != .all } == [.session("streamed")])
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
        let (during, after) = try await writing.pool.withConnection { connection in
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
