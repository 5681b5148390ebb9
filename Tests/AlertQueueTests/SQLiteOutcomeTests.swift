import Foundation
import Testing

import AlertQueue
@testable import AlertQueueSQLite

/// The SQLite roll-up counts from the events it keeps in memory only when they are the file's:
/// events another store wrote to the same file, or that one wrote before it was opened, are
/// read from the file.
@Suite("SQLite outcome roll-up")
struct SQLiteOutcomeTests {
    @Test("Events written by another store on the same file, and before this one opened, are each counted once")
    func countsWhatOthersWrote() async throws {
        // Given: a store that enqueued twice and closed without rolling up; then two stores on the
        // file, each enqueuing and delivering
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        do {
            let earlier = try SQLiteQueueStore(path: path, durability: .process)
            _ = try await earlier.enqueue(alert("app/a", in: "old1"), now: t0)
            _ = try await earlier.enqueue(alert("app/a", in: "old2"), now: t0)
            try earlier.close()
        }
        let one = try SQLiteQueueStore(path: path, durability: .process)
        let other = try SQLiteQueueStore(path: path, durability: .process)
        defer {
            try? one.close()
            try? other.close()
        }
        for index in 0..<3 {
            _ = try await one.enqueue(alert("app/a", in: "one\(index)"), now: at(1))
            _ = try await other.enqueue(alert("app/a", in: "other\(index)"), now: at(1))
            _ = try await one.next(session: "one\(index)", now: at(2))
        }

        // When: both roll up, one after the other, twice
        var counted = 0
        for store in [one, other, one, other] {
            counted += try await store.rollUpOutcomes(limit: 4).events
        }
        counted += try await one.rollUpOutcomes(limit: 100).events

        // Then: 2 + 6 enqueued and 3 delivered, each counted once
        let day = OutcomeDay(t0)
        let report = OutcomeReport(alert: "app/a", days: day...day, counters: try await one.outcomes(alert: "app/a", days: day...day))
        #expect(counted == 11)
        #expect(report.total.enqueued == 8 && report.total.delivered == 3)
    }

    @Test("Events kept in memory are counted without reading the file, and erased ones are not counted")
    func countsFromMemoryUnlessErased() async throws {
        // Given: two sessions' events, one session erased before the roll-up
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path, durability: .process)
        defer { try? store.close() }
        _ = try await store.enqueue(alert("app/a", in: "kept"), now: t0)
        _ = try await store.enqueue(alert("app/a", in: "erased"), now: t0)
        _ = try await store.next(session: "erased", now: at(1))
        #expect(store.recentOutcomes.after(EventCursor(id: 0), limit: 10).count == 3)
        _ = try await store.erase(session: "erased")

        // When
        let rolled = try await store.rollUpOutcomes(limit: 100)

        // Then: the file's one event, and nothing left in memory
        #expect(rolled.events == 1)
        #expect(rolled.tally.totals[OutcomeTotal(alert: "app/a", outcome: .enqueued)] == 1)
        #expect(store.recentOutcomes.after(EventCursor(id: 0), limit: 10).isEmpty)
    }
}
