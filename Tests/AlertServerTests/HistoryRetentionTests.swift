import AlertQueue
import AlertQueueSQLite
import AlertServer
import AlertSpec
import Foundation
import TestClocks
import Testing

/// `HistoryRetention` on its own: a pass sweeps batch after batch at the clock's time, and the
/// loop ends when its task is cancelled.
@Suite("History retention")
struct HistoryRetentionTests {
    @Test("a pass purges, batch after batch, what finished before the clock's time minus the retention")
    func passSweepsEveryBatch() async throws {
        // Given seven items cancelled at the clock's start, one queued, and batches of two
        let clock = ManualClock()
        let store = try SQLiteQueueStore.inMemory()
        let start = clock.now()
        for index in 0..<7 {
            let ticket = try await store.enqueue(Self.item(in: "s\(index)"), now: start).item.ticket
            _ = try await store.cancel(session: "s\(index)", ticket: ticket, now: start)
        }
        let live = try await store.enqueue(Self.item(in: "live"), now: start).item.ticket
        let retention = HistoryRetention(store: store, clock: clock, retention: 3_600, batchSize: 2, pause: .zero)

        // When a pass runs within the hour, then after it
        let early = try await retention.pass()
        clock.advance(by: 3_601)
        let late = try await retention.pass()

        // Then the first purged nothing, the second every cancelled item with its two events
        #expect(early == .nothing)
        #expect(late == Erasure(items: 7, events: 14))
        #expect(try await store.item(session: "live", ticket: live)?.state == .queued)
        #expect(try await retention.pass() == .nothing)
    }

    @Test("the loop ends when its task is cancelled, during its wait for the next pass")
    func runEndsOnCancel() async throws {
        let retention = HistoryRetention(
            store: try SQLiteQueueStore.inMemory(), clock: ManualClock(), retention: 60, interval: .seconds(3_600))
        let task = Task { await retention.run() }
        task.cancel()
        await task.value  // returns: the hour's wait ends with the cancellation
    }

    private static func item(in session: String) -> NewItem {
        NewItem(session: session, content: .alert(id: "app/a", parameters: [:]), priority: 500, lane: .modal, dedupeKey: "a")
    }
}
