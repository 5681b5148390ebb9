import Foundation

/// Where a sweep of old items stopped: the enqueue sequence of the last item a purge batch
/// looked at. The next batch goes on after it.
public struct PurgeCursor: Sendable, Hashable {
    public let sequence: Int64

    public init(sequence: Int64) { self.sequence = sequence }
}

/// What one purge batch did: the finished items it deleted with their events, and where the
/// sweep goes on (nil once it reached items enqueued at or after the cutoff, or the last item).
public struct PurgeBatch: Sendable, Equatable {
    public var items: Int
    public var events: Int
    public var next: PurgeCursor?

    public init(items: Int, events: Int, next: PurgeCursor?) {
        self.items = items
        self.events = events
        self.next = next
    }
}

/// How a sweep of the retention goes: `batchSize` items looked at per purge batch, `pause`
/// between two batches (so that live writes interleave with them).
public struct PurgePace: Sendable, Equatable {
    public var batchSize: Int
    public var pause: Duration

    public init(batchSize: Int, pause: Duration) {
        self.batchSize = batchSize
        self.pause = pause
    }
}

extension QueueStore {
    /// Purges every item finished before `cutoff`, batch after batch of `limit` items looked at,
    /// from the oldest: a whole sweep, for tests and tools. The server's retention pauses
    /// between batches instead.
    public func purgeAll(finishedBefore cutoff: Date, limit: Int = 500) async throws -> Erasure {
        var total = Erasure.nothing
        var cursor: PurgeCursor?
        repeat {
            let batch = try await purge(finishedBefore: cutoff, after: cursor, limit: limit)
            total.items += batch.items
            total.events += batch.events
            cursor = batch.next
        } while cursor != nil
        return total
    }
}
