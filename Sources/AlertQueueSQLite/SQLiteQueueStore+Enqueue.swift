import AlertQueue
import Foundation
import GRDB

// The SQLite store's enqueue: one write, run again once when a racing writer took its dedupe
// key, and followed in the same write by the delivery to a waiting poll when asked.

extension SQLiteQueueStore {
    /// An enqueue, as one write.
    ///
    /// The policy finds a duplicate among the live items loaded. Should the insert still break
    /// the unique index on live dedupe keys (a writer the load did not see), the write is undone
    /// whole, and run again: it now sees the item that holds the key, and answers with it as a
    /// duplicate. `seeingLiveItems: false` loads nothing the first time, which is how tests take
    /// that path.
    ///
    /// An enqueue runs inline on the HTTP worker only while writes are rare (`.whenQuiet`: at
    /// most 4 in 5 ms); faster, it waits for the writer's thread even when the writer is idle.
    /// Enqueues come in floods from the backend, and an inline insert held its worker thread,
    /// and every connection of that thread, for the whole transaction. Measured on the release
    /// build with 32 connections (scripts/bench-queue.sh's enqueue and cycle runs, two servers
    /// side by side in alternating rounds): always waiting for the writer gave 1.06–1.32 × the
    /// enqueues per second (medians of four comparisons) at 0.85–0.98 × the server CPU per
    /// enqueue, and 1.13–1.18 × the enqueue → next → ack cycles. Running inline only when no
    /// write had waited during the writer's last busy spell lost half of that (the writer is
    /// often idle for a moment under load too); counting arrivals does not, as a flood never
    /// looks quiet. At light load the hops to the writer's thread and back cost an enqueue, and
    /// the long-poll it wakes, about 0.2 ms at the median and more in the tail: each hop wakes a
    /// thread, and waking an idle core of this VM now and then takes milliseconds.
    ///
    /// A `next` still runs inline when the writer is idle: sent to the writer, 10,000 polls
    /// arriving at once each held a suspended task, and a waiting poll cost 9.3–10.2 KiB
    /// instead of 6.3.
    ///
    /// The new item's ticket is drawn before the write, off the writer's thread, which every
    /// write waits for (`RandomWords` reads the kernel's random bytes in bulk for it).
    ///
    /// `delivering`, an item it created is followed by `next`'s step on the same loaded items
    /// (see `enqueueAndTakeNext`).
    func enqueue(
        _ item: NewItem, now: Date, seeingLiveItems: Bool, delivering: Bool
    ) async throws -> (enqueued: EnqueueResult, delivered: QueueItem?) {
        let ticket = QueueTicket.make(at: now)
        do {
            return try await batcher.write(inline: .whenQuiet) { db in
                try self.enqueue(item, ticket: ticket, now: now, in: db, seeingLiveItems: seeingLiveItems, delivering: delivering)
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return try await batcher.write(inline: .whenQuiet) { db in
                try self.enqueue(item, ticket: ticket, now: now, in: db, seeingLiveItems: true, delivering: delivering)
            }
        }
    }

    /// One enqueue inside a write transaction, and the delivery that follows it when
    /// `delivering`. It throws with nothing undone: the batcher undoes a failed write whole (see
    /// `WriteBatcher`).
    private func enqueue(
        _ new: NewItem, ticket: String, now: Date, in db: Database, seeingLiveItems: Bool, delivering: Bool
    ) throws -> (enqueued: EnqueueResult, delivered: QueueItem?) {
        let candidate = policy.makeItem(new, ticket: ticket, sequence: try sequences.next(in: db), now: now)
        var items = try load(session: new.session, scope: seeingLiveItems ? .live : nil, in: db)
        let result = try policy.enqueue(candidate, into: &items, now: now)
        let delivered = delivering && result.created ? try deliver(from: &items, now: now, in: db) : nil
        try save(items, in: db)
        return (result, delivered)
    }

    /// An enqueue that does not see the live items, as a writer racing this one would not: only
    /// the unique index can find the duplicate. For tests of that path.
    func enqueueUnseen(_ new: NewItem, now: Date) async throws -> EnqueueResult {
        try await enqueue(new, now: now, seeingLiveItems: false, delivering: false).enqueued
    }

    /// `enqueueAndTakeNext`, not seeing the live items the first time (as `enqueueUnseen`).
    func enqueueAndTakeNextUnseen(_ new: NewItem, now: Date) async throws -> (enqueued: EnqueueResult, delivered: QueueItem?) {
        try await enqueue(new, now: now, seeingLiveItems: false, delivering: true)
    }
}
