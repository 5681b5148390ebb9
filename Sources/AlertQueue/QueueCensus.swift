import AlertSpec

/// How many live items a whole store holds, by lane and state: what `/metrics` reports as
/// queue depth. Counted as of a moment: a queued item whose TTL has passed counts as `expired`
/// (it will never be delivered) until a step of its session marks it so.
///
/// Only queued and presenting items are read, so the count costs the same however much history
/// the store keeps: items already marked expired or dead, and done and cancelled ones, are not
/// counted (their totals are counters of outcomes, not a census).
///
/// ```swift
/// let census = try await store.census(now: .now)
/// census[.modal, .queued]   // modal alerts waiting in every session
/// ```
public struct QueueCensus: Sendable, Equatable {
    /// The states counted: `expired` holds only queued items whose TTL has passed.
    public static let states: [ItemState] = [.queued, .presenting, .expired]

    private var counts: [Lane: [ItemState: Int]] = [:]

    public init() {}

    /// Items of `lane` in `state` (0 for a state not counted).
    public subscript(lane: Lane, state: ItemState) -> Int {
        get { counts[lane]?[state] ?? 0 }
        set { counts[lane, default: [:]][state] = newValue }
    }

    /// Adds a count read from a store: unknown lane or state names are ignored.
    public mutating func add(lane: String, state: String, count: Int) {
        guard let lane = Lane(rawValue: lane), let state = ItemState(rawValue: state), Self.states.contains(state) else { return }
        self[lane, state] += count
    }
}
