import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

/// `next`: the claim, serialized per session by the session's row lock; the database keeps it
/// right while instances race.
extension PostgresQueueStore {
    /// One delivery, in one statement and so one transaction (`alertd.deliver_unpaced`, which
    /// calls `alertd.claim_next`, see `claimNextFunction`; `alertd.claim_next_logged` around it
    /// writes the step's events, unless `QueueSettings.recordsEvents` is off):
    /// 1. Locks the session's row (`FOR UPDATE`), so that claims of one session take turns.
    ///    Without it, two instances claiming at once could each take a different modal — the
    ///    second skipping the first, locked by the other (`SKIP LOCKED`) — and whichever
    ///    committed first would present, the second in line possibly (seen under load in
    ///    `MultiInstanceTests`). Claims of different sessions never wait for each other.
    /// 2. Ends the leases and TTLs that passed, as `QueuePolicy.prepare` does.
    /// 3. Claims the best queued item of the free lanes in the documented order (chains first,
    ///    newest first; then priority, higher first; then enqueue order), taken from the first
    ///    entries of each lane's indexes rather than by sorting the session's queue.
    /// 4. Marks it presenting with a lease; a HUD is done at once (fire-and-forget).
    ///
    /// A session with queued paced items is left to `pacedNext`, a step in Swift (the claim
    /// knows no rule). The partial unique index `items_one_presenting` still guarantees one
    /// presenting modal per session whatever the path: a unique violation is answered by
    /// `perform` running the claim again, which then sees the lane busy.
    func claimNext(session: String, now callerNow: Date, on connection: PostgresConnection) async throws -> QueueItem? {
        let (delivery, paced) = try await deliverUnpaced(session: session, now: callerNow, withdraws: false, on: connection)
        if paced { return try await pacedNext(session: session, now: callerNow, on: connection) }
        return delivery?.item
    }

    /// A claim's `now` and lease end as `claim_next` takes them: the caller's, or NaN for the
    /// database's own clock.
    func claimTimes(_ callerNow: Date) -> (now: Double, leaseUntil: Double) {
        switch options.clock {
        case .caller:
            (callerNow.timeIntervalSince1970, callerNow.addingTimeInterval(policy.settings.leaseDuration).timeIntervalSince1970)
        case .database: (Double.nan, Double.nan)
        }
    }
}
