import Foundation

/// When an enqueued item may first be delivered: a time, or seconds after the enqueue. Part of
/// the enqueue request (`NewItem.notBefore`), resolved by `QueuePolicy.makeItem` at the step's
/// time, so that on a store with the database's clock "seconds from now" is the database's now.
///
/// ```swift
/// let item = NewItem(session: "s1", content: content, priority: 500, lane: .modal,
///                    dedupeKey: "k", notBefore: .after(seconds: 3600))
/// ```
public enum NotBefore: Sendable, Equatable {
    /// Not before this time.
    case at(Date)
    /// Not before this many seconds after the enqueue.
    case after(seconds: Double)

    /// The furthest ahead an item may be scheduled: 366 days, a year and its leap day.
    public static let maxAhead: Double = 366 * 86_400

    /// The time the item is scheduled for when it is queued at `now`; nil when that is not after
    /// `now` (a time in the past means now: the item is deliverable at once).
    public func resolved(now: Date) -> Date? {
        let date =
            switch self {
            case .at(let date): date
            case .after(let seconds): now.addingTimeInterval(seconds)
            }
        return date > now ? date : nil
    }

    /// Whether it lies more than `maxAhead` after `now`.
    public func isTooFar(from now: Date) -> Bool {
        switch self {
        case .at(let date): date.timeIntervalSince(now) > Self.maxAhead
        case .after(let seconds): seconds > Self.maxAhead
        }
    }
}
