import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO
import TestExecutors
import Testing

@testable import AlertQueuePostgres

/// The production clock: PostgreSQL's `now()` decides TTLs, leases and holds, whatever `now` the
/// caller passes (instances with skewed clocks agree). The database's clock cannot be moved, so
/// these tests move an item's stored times back instead (`age`): to the store, as if that much
/// time had passed on the database clock.
@Suite("PostgreSQL queue store on the database clock", .ownThread)
struct PostgresDatabaseClockTests {
    static let databaseClock = PostgresQueueStore.Options(
        clock: .database, maximumConnections: 2, requestTimeout: .seconds(30), reachabilityTimeout: .seconds(10),
        connectTimeout: .seconds(10))

    @Test("Enqueue times come from the database, not from the caller")
    func enqueueTimeIsTheDatabases() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.databaseClock)
        // When the caller's clock says 1970
        let item = try await store.enqueue(alert("app/a", ttl: 60), now: Date(timeIntervalSince1970: 0)).item
        // Then the item was queued now, by the database's clock
        #expect(item.enqueuedAt > t0)
        #expect(item.expiresAt == item.enqueuedAt.addingTimeInterval(60))
        #expect(try await store.item(session: session, ticket: item.ticket) == item)
    }

    @Test("An item expires when its TTL has passed on the database clock, whatever the caller says")
    func ttlOnTheDatabaseClock() async throws {
        // Given: an item with one second to live, and another without a TTL
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.databaseClock)
        let shortLived = try await store.enqueue(alert("app/short", priority: 900, ttl: 1), now: .distantFuture).item
        _ = try await store.enqueue(alert("app/lasting", priority: 100), now: .distantFuture)
        // When the second has passed (a caller claiming it is still 1970)
        try await Self.age(store, ticket: shortLived.ticket, by: 1.5)
        let delivered = try await store.next(session: session, now: Date(timeIntervalSince1970: 0))
        // Then
        #expect(delivered?.alertID == "app/lasting")
        #expect(try await store.item(session: session, ticket: shortLived.ticket)?.state == .expired)
    }

    @Test("A lease runs on the database clock: held until it ends, then the item comes again")
    func leaseOnTheDatabaseClock() async throws {
        // Given: a two-second lease
        let lease: TimeInterval = 2
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(settings: QueueSettings(leaseDuration: lease), options: Self.databaseClock)
        _ = try await store.enqueue(alert("app/a"), now: t0)
        let first = try #require(try await store.next(session: session, now: .distantPast))
        let firstLeaseEnd = try #require(first.leaseUntil)
        #expect(firstLeaseEnd.timeIntervalSince(first.enqueuedAt) >= lease - 0.001)
        // When the caller's clock says the lease ended long ago, then it has not: nothing comes
        // while it lasts on the database's clock. (On a machine so busy that two seconds passed
        // between the two calls, it had ended there too: the item came again, and its new lease
        // began on the database's clock after the first one ended, never on the caller's.)
        var deliveries = 1
        if let early = try await store.next(session: session, now: .distantFuture) {
            deliveries += 1
            let began = try #require(early.leaseUntil).addingTimeInterval(-lease)
            #expect(began.timeIntervalSince(firstLeaseEnd) > -0.001, "delivered again at \(began); the lease ended at \(firstLeaseEnd)")
            #expect(began < Date().addingTimeInterval(60), "the new lease began on the caller's clock: \(began)")
        }
        // When it has ended on the database clock
        try await Self.age(store, ticket: first.ticket, by: lease + 0.5)
        let again = try await store.next(session: session, now: .distantPast)
        // Then the same item comes again
        #expect(again?.ticket == first.ticket)
        #expect(again?.deliveries == deliveries + 1)
    }

    @Test("A schedule in seconds counts from the database's now, and comes due on its clock")
    func scheduleOnTheDatabaseClock() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.databaseClock)
        // When a caller whose clock says 1970 schedules an item a minute ahead
        let item = try await store.enqueue(scheduled(alert("app/a", ttl: 30), .after(seconds: 60)), now: Date(timeIntervalSince1970: 0)).item
        // Then it is a minute after the database's now, and not due for a caller far in the future
        let due = try #require(item.notBefore)
        #expect(due == item.enqueuedAt.addingTimeInterval(60) && item.expiresAt == due.addingTimeInterval(30))
        #expect(try await store.next(session: session, now: .distantFuture) == nil)
        #expect(try await store.nextTimedChange(session: session, now: .distantFuture) == due)
        // When the minute has passed on the database clock
        try await Self.age(store, ticket: item.ticket, by: 61)
        #expect(try await store.next(session: session, now: Date(timeIntervalSince1970: 0))?.ticket == item.ticket)
    }

    /// Moves the item's enqueue time, schedule, TTL end and lease end `seconds` back: as if that
    /// much time had passed for it on the database clock.
    static func age(_ store: PostgresQueueStore, ticket: String, by seconds: Double) async throws {
        _ = try await store.perform { connection in
            try await connection.query(
                """
                UPDATE alertd.items SET enqueued_at = enqueued_at - \(seconds), expires_at = expires_at - \(seconds),
                    lease_until = lease_until - \(seconds), not_before = not_before - \(seconds)
                WHERE ticket = \(ticket)
                """, logger: store.logger)
        }
    }

    @Test("A hold is judged by the database clock")
    func holdOnTheDatabaseClock() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(options: Self.databaseClock)
        _ = try await store.enqueue(alert("app/modal"), now: t0)
        // When a hold for the next ten minutes is set
        let until = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 600).rounded())
        try await store.hold(session: session, until: until)
        // Then a caller far in the future still sees it
        #expect(try await store.holdUntil(session: session, now: .distantFuture) == until)
        #expect(try await store.next(session: session, now: .distantFuture) == nil)
    }
}
