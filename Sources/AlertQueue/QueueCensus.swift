import AlertSpec

/// How many items a whole store holds, by lane and state: what `/metrics` reports as queue
/// depth, expirations and dead letters. Counted as of a moment: a queued item whose TTL has
/// passed counts as `expired` (it will never be delivered), even before a step of its session
/// has marked it so.
///
/// Only `queued`, `presenting`, `expired` and `dead` are counted: `done` and `cancelled` items,
/// the usual end of an item and the bulk of a store's history, are not read.
///
/// ```swift
/// let census = try await store.census(now: .now)
/// census[.modal, .queued]   // modal alerts waiting in every session
/// ```
public struct QueueCensus: Sendable, Equatable {
    /// The states counted.
    public static let states: [ItemState] = [.queued, .presenting, .expired, .dead]

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
