import AlertSpec
import Foundation
import GRDB
import Testing

import AlertQueue
@testable import AlertQueueSQLite

/// The SQLite recall's batches, beside the writes of live traffic.
@Suite("SQLite recall")
struct SQLiteRecallTests {
    @Test("A recall racing enqueues and acks of its alert takes each live copy back once and keeps the live counts")
    func recallBesideLiveWrites() async throws {
        // Given: a file store (background writes as in service) with the promo queued in 1,200
        // sessions, presenting in every twentieth
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path, durability: .full)
        defer { try? store.close() }
        let sessions = (0..<1_200).map { "s\($0)" }
        var tickets: [(session: String, ticket: String)] = []
        for start in stride(from: 0, to: sessions.count, by: 100) {
            let copies = sessions[start..<start + 100].map { alert("app/promo", in: $0) }
            for case .success(let enqueued) in try await store.enqueue(copies: copies, now: t0) {
                tickets.append((enqueued.item.session, enqueued.item.ticket))
            }
        }
        let shown = sessions.enumerated().filter { $0.offset % 20 == 0 }.map(\.element)
        var presenting: [String: String] = [:]
        for session in shown { presenting[session] = try await store.next(session: session, now: at(1))?.ticket }
        // When: the recall runs while copies are queued in new sessions and presenting ones acked
        let recall = Task { try await store.recall(.alert("app/promo"), now: at(2)) }
        var acked = 0
        for (index, session) in shown.enumerated() {
            let copy = try await store.enqueue(alert("app/promo", in: "new\(index)"), now: at(2)).item
            tickets.append((copy.session, copy.ticket))
            if (try? await store.ack(session: session, ticket: try #require(presenting[session]), chain: nil, now: at(2))) != nil {
                acked += 1
            }
        }
        let recalled = try await recall.value
        // Then: each copy answered or taken back, never both, and each taken back by one event
        var takenBack = 0
        for (session, ticket) in tickets {
            let state = try #require(try await store.item(session: session, ticket: ticket)?.state)
            let events = try await store.timeline(session: session, ticket: ticket).map(\.event)
            let byRecall = events.filter { $0.detail["by"] == .string("recall") }
            #expect(byRecall.count == (state == .cancelled ? 1 : 0))
            #expect([.cancelled, .done, .queued].contains(state))
            takenBack += byRecall.count
        }
        #expect(recalled.cancelled + recalled.withdrawn == takenBack)
        #expect(recalled.cancelled >= sessions.count - shown.count)
        #expect(recalled.withdrawn + acked == shown.count)
        // A withdraw is owed to each session whose presenting copy the recall took back
        for session in shown {
            let ticket = try #require(presenting[session])
            guard try await store.item(session: session, ticket: ticket)?.state == .cancelled else { continue }
            #expect(try await store.nextDelivery(session: session, now: at(3)) == .withdraw(ticket: ticket))
        }
        // The live counts the triggers keep agree with the live rows
        let (counted, live) = try await store.write { db in
            (
                try Int.fetchOne(db, sql: "SELECT coalesce(sum(n), 0) FROM live_counts") ?? -1,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM items WHERE state IN ('queued', 'presenting')") ?? -1
            )
        }
        #expect(counted == live)
        let census = try await store.census(now: at(3))
        #expect(live == census[.modal, .queued] + census[.modal, .presenting])
    }
}
