import AlertQueue
import AlertSpec
import Foundation
import GRDB

// The SQLite store's enqueue: one write, run again once when a racing writer took its dedupe
// key, and followed in the same write by the delivery to a waiting poll when asked.

extension SQLiteQueueStore {
    /// An enqueue, as one write.
    ///
    /// The policy finds a duplicate in the window read (which holds the live item with the key). Should the insert still break
    /// the unique index on live dedupe keys (a writer the load did not see), the write is undone
    /// whole, and run again: it now sees the item that holds the key, and answers with it as a
    /// duplicate. `seeingLiveItems: false` loads nothing the first time, which is how tests take
    /// that path.
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
            return try await write { db in
                try self.enqueue(item, ticket: ticket, now: now, in: db, seeingLiveItems: seeingLiveItems, delivering: delivering)
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return try await write { db in
                try self.enqueue(item, ticket: ticket, now: now, in: db, seeingLiveItems: true, delivering: delivering)
            }
        }
    }

    /// One enqueue inside a write transaction, and the delivery that follows it when
    /// `delivering`. It throws with nothing undone: the batcher undoes a failed write whole (see
    /// `WriteBatcher`).
    func enqueue(
        _ new: NewItem, ticket: String, now: Date, in db: Database, seeingLiveItems: Bool, delivering: Bool
    ) throws -> (enqueued: EnqueueResult, delivered: QueueItem?) {
        let candidate = policy.makeItem(new, ticket: ticket, sequence: try sequences.next(in: db), now: now)
        var items = SessionItems(session: new.session, items: [])
        var window: SessionWindow?
        if seeingLiveItems {
            var read = try SessionWindow(session: new.session, now: now, in: db, contents: contents)
            try read.readHolder(of: new.dedupeKey)
            if new.lane == .hud { try read.readQueuedHUDs() }
            if delivering { try read.readBest() }
            let holder = read.items.first { $0.dedupeKey == new.dedupeKey && $0.state.isLive }
            items = read.sessionItems(unloaded: try read.unloaded(positioned: [candidate] + (holder.map { [$0] } ?? [])))
            window = read
        }
        var result = try policy.enqueue(candidate, into: &items, now: now, onDuplicate: new.onDuplicate, origin: new.origin)
        // A session owed a withdraw gets it first: its poll then looks for itself.
        let deliverable = try delivering && result.created && !WithdrawalRecord.isOwed(session: new.session, in: db)
        let delivered = deliverable ? try deliver(from: &items, now: now, in: db) : nil
        try save(items, in: db)
        // A refresh may have moved the item among priorities or lanes: its place is counted
        // again as written (the counts of the window were of its place before).
        if result.refreshed, let window { result.position = try window.place(ofQueued: result.item) }
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
