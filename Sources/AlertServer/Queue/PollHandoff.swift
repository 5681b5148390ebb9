import AlertQueue
import Foundation

/// An enqueue that hands its session's longest-waiting long-poll what `next` delivers right
/// after it, instead of waking the poll to look for itself: on a store that does both in one
/// step (`EnqueueAndTakeNext`, SQLite) that is one commit where the enqueue and the poll's look
/// took two, and a third less server CPU per woken poll (docs/benchmarks.md).
///
/// It sits between the registry and the handler: the store only offers the queue step, the
/// registry only the claim.
struct PollHandoff: Sendable {
    let store: any QueueStore
    let polls: LongPolls

    /// Queues `item`; a poll of its session that was waiting gets what `next` delivered, or is
    /// woken to look itself (a duplicate, a busy lane, a hold, a failed write). The session's
    /// other polls are notified when the item is new or refreshed (its lane or priority may now
    /// let it through).
    func enqueue(_ item: NewItem, now: Date) async throws -> EnqueueResult {
        guard let waiting = polls.claim(item.session) else {
            let result = try await store.enqueue(item, now: now)
            if result.created || result.refreshed { polls.notify(item.session) }
            return result
        }
        let result: EnqueueResult
        let delivered: QueueItem?
        do {
            (result, delivered) = try await store.enqueueThenNext(item, now: now)
        } catch {
            waiting(nil)
            throw error
        }
        waiting(delivered)
        if result.created || result.refreshed { polls.notify(item.session) }
        return result
    }
}
