import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO
import TestExecutors
import Testing

@testable import AlertQueuePostgres

/// Pacing as the PostgreSQL store keeps it: the deliveries in `alertd.pacing_shown` (per session
/// and per user), the step in Swift that `alertd.deliver_unpaced` leaves paced sessions to, on
/// either clock.
@Suite("PostgreSQL pacing", .ownThread)
struct PostgresPacingTests {
    /// An alert of `id` paced by `rule`.
    static func paced(_ id: String, in session: String = session, key: String? = nil, _ rule: Pacing) -> NewItem {
        var item = alert(id, in: session, key: key)
        item.pacing = rule
        return item
    }

    /// The times of the deliveries kept under `scope`, oldest first.
    static func shown(_ store: PostgresQueueStore, scope: String) async throws -> [Double] {
        try await store.perform { connection in
            try await connection.query(
                "SELECT at FROM alertd.pacing_shown WHERE scope = \(scope) ORDER BY at", logger: store.logger
            ).collect().map { try $0.decode(Double.self) }
        }
    }

    @Test("A gap is judged by the database clock: the delivery is kept at the database's now, whatever the caller says")
    func gapOnTheDatabaseClock() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: PostgresDatabaseClockTests.databaseClock)
        let gap = Pacing(minGap: .init(duration: .seconds(60)))
        _ = try await store.enqueue(Self.paced("app/news", key: "n1", gap), now: .distantPast)
        // When a caller whose clock says 1970 is shown the news
        let first = try #require(try await store.next(session: session, now: Date(timeIntervalSince1970: 0)))
        _ = try await store.ack(session: session, ticket: first.ticket, chain: nil, now: Date(timeIntervalSince1970: 0))
        // Then it is kept at the step's time, the database's: where its lease began
        let kept = try await Self.shown(store, scope: "s:\(session)")
        let began = try #require(first.leaseUntil).addingTimeInterval(-QueueSettings().leaseDuration).timeIntervalSince1970
        #expect(kept.count == 1 && abs(kept[0] - began) < 0.001)
        // And a second news waits out the gap on the database clock, not the caller's
        let second = try await store.enqueue(Self.paced("app/news", key: "n2", gap), now: .distantPast).item
        #expect(try await store.next(session: session, now: .distantFuture) == nil)
        let lifts = try #require(try await store.nextTimedChange(session: session, now: .distantFuture))
        #expect(abs(lifts.timeIntervalSince1970 - (kept[0] + 60)) < 0.001)
        // When the gap has passed there
        _ = try await store.perform { connection in
            try await connection.query("UPDATE alertd.pacing_shown SET at = at - 61", logger: store.logger)
        }
        #expect(try await store.next(session: session, now: Date(timeIntervalSince1970: 0))?.ticket == second.ticket)
    }

    @Test("Erasing a session forgets its own deliveries, not its user's")
    func eraseKeepsTheUsers() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let ownOnce = Pacing(once: .init()), usersOnce = Pacing(once: .init(scope: .user))
        func register() async throws { _ = try await store.register(session: "phone", user: "ana", topics: nil, now: t0) }
        func enqueueBoth(_ second: Double) async throws {
            _ = try await store.enqueue(Self.paced("app/tip", in: "phone", ownOnce), now: at(second))
            _ = try await store.enqueue(Self.paced("app/promo", in: "phone", usersOnce), now: at(second))
        }
        try await register()
        try await enqueueBoth(0)
        #expect(try await store.drain(session: "phone", now: at(1)) == ["app/tip", "app/promo"])
        #expect(try await Self.shown(store, scope: "s:phone").count == 2)
        #expect(try await Self.shown(store, scope: "u:ana").count == 2)
        // When the session is erased, then registered again for the same user
        _ = try await store.erase(session: "phone")
        #expect(try await Self.shown(store, scope: "s:phone").isEmpty)
        try await register()
        try await enqueueBoth(2)
        // Then its own "once" starts afresh; the user's still holds
        #expect(try await store.drain(session: "phone", now: at(3)) == ["app/tip"])
        #expect(try await store.listedIDs(session: "phone", now: at(3)) == ["app/promo"])
    }

    @Test("nextDelivery paces as next does: a once-only alert shown is not delivered again")
    func nextDeliveryPaces() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        _ = try await store.enqueue(Self.paced("app/tour", key: "t1", Pacing(once: .init())), now: t0)
        let shown = try #require(try await store.nextDelivery(session: session, now: at(1))?.item)
        _ = try await store.ack(session: session, ticket: shown.ticket, chain: nil, now: at(1))
        // When a second tour and a plain alert are queued
        _ = try await store.enqueue(Self.paced("app/tour", key: "t2", Pacing(once: .init())), now: at(2))
        _ = try await store.enqueue(alert("app/plain"), now: at(2))
        // Then the plain alert comes, and nothing after it
        #expect(try await store.nextDelivery(session: session, now: at(3))?.item?.alertID == "app/plain")
        #expect(try await store.nextDelivery(session: session, now: at(3)) == nil)
    }

    @Test("A session is marked paced by a paced enqueue, until a step finds no queued item paced")
    func pacedMark() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        func marked() async throws -> Bool {
            try await store.perform { connection in
                try await connection.query("SELECT paced FROM alertd.sessions WHERE session = \(session)", logger: store.logger)
                    .collect().first?.decode(Bool.self) ?? false
            }
        }
        let gap = Pacing(minGap: .init(duration: .seconds(60)))
        _ = try await store.enqueue(Self.paced("app/news", key: "n1", gap), now: t0)
        #expect(try await marked())
        // When its only paced item is delivered
        _ = try #require(try await store.next(session: session, now: at(1)))
        // Then the mark is gone, and the session claims in one statement again
        #expect(try await !marked())
        // When a paced item is cancelled, the mark stays until the next step
        _ = try await store.enqueue(Self.paced("app/news", key: "n2", gap), now: at(2))
        _ = try await store.cancel(session: session, ticket: nil, by: .admin, now: at(3))
        #expect(try await marked())
        #expect(try await store.next(session: session, now: at(4)) == nil)
        #expect(try await !marked())
    }

    @Test("A session without queued paced items is claimed in one statement, and keeps no deliveries")
    func unpacedKeepsNone() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        _ = try await store.register(session: session, user: "ana", topics: nil, now: t0)
        _ = try await store.enqueue(alert("app/plain"), now: t0)
        // When
        let (delivery, paced) = try await store.perform { connection in
            try await store.deliverUnpaced(session: session, now: at(1), withdraws: false, on: connection)
        }
        // Then
        #expect(delivery?.item?.alertID == "app/plain" && !paced)
        #expect(try await Self.shown(store, scope: "s:\(session)").isEmpty)
        #expect(try await Self.shown(store, scope: "u:ana").isEmpty)
    }
}
