import AlertQueue
import Foundation

/// The queue semantics over every item of one session, as `QueuePolicy` defines them: what a
/// store must answer, step by step, whatever part of the session it reads. Tickets and
/// sequences are the store's, taken from its answers.
struct FullScanModel {
    let policy: QueuePolicy
    let session: String
    private(set) var items: [QueueItem] = []
    var holdUntil: Date?

    init(settings: QueueSettings, session: String) {
        self.policy = QueuePolicy(settings: settings)
        self.session = session
    }

    /// Runs `step` over every item, and keeps what it changed.
    private mutating func step<T>(_ step: (inout SessionItems) throws(QueueError) -> T) -> Result<T, QueueError> {
        var all = SessionItems(session: session, items: items)
        let result = Result { () throws(QueueError) in try step(&all) }
        if case .success = result { items = all.all }
        return result
    }

    /// `enqueue`, the new item drawn with `ticket` and `sequence`; then `next` when `delivering`.
    mutating func enqueue(
        _ new: NewItem, ticket: String, sequence: Int64, now: Date, delivering: Bool = false
    ) -> Result<(enqueued: EnqueueResult, delivered: QueueItem?), QueueError> {
        let candidate = policy.makeItem(new, ticket: ticket, sequence: sequence, now: now)
        let (policy, holdUntil) = (policy, holdUntil)
        return step { items throws(QueueError) in
            let result = try policy.enqueue(candidate, into: &items, now: now, onDuplicate: new.onDuplicate)
            let delivered = delivering && result.created ? policy.next(&items, holdUntil: holdUntil, now: now) : nil
            return (enqueued: result, delivered: delivered)
        }
    }

    mutating func next(now: Date) -> QueueItem? {
        let (policy, holdUntil) = (policy, holdUntil)
        return try! step { items in policy.next(&items, holdUntil: holdUntil, now: now) }.get()
    }

    mutating func acknowledge(ticket: String, chain: QueueItem?, now: Date) -> Result<Acknowledgement, QueueError> {
        let policy = policy
        return step { items throws(QueueError) in try policy.acknowledge(ticket: ticket, chain: chain, in: &items, now: now) }
    }

    mutating func cancel(ticket: String?, now: Date) -> Result<Int, QueueError> {
        let policy = policy
        return step { items throws(QueueError) in try policy.cancel(ticket: ticket, in: &items, now: now) }
    }

    mutating func listing(now: Date) -> [QueueItem] {
        let policy = policy
        return try! step { items in policy.listing(&items, now: now) }.get()
    }
}

extension Result where Failure == QueueError {
    /// What `body` returned or threw, a `QueueError` kept as the failure; any other error rethrown.
    static func of(_ body: () async throws -> Success) async throws -> Self {
        do {
            return .success(try await body())
        } catch let error as QueueError {
            return .failure(error)
        }
    }
}
