import AlertSpec
import Foundation

/// When paced alerts were shown, as far as a step's pacing rules look: for each alert and scope
/// (the session, or every session of its user), how many deliveries fall in each window a rule
/// counts, the times of the newest few, and whether the alert was ever shown there.
///
/// A store fills it for the rules it judges (`Demand`) either with every delivery in the longest
/// period a rule may name (`add(alert:scope:shownAt:)`), or with what the rules ask of each key
/// (`add(alert:scope:read:)`), so that reading it costs the same however long the history is.
/// The step adds its own deliveries (`recordShown`), which the store then keeps.
///
/// ```swift
/// var history = PacingHistory()
/// history.add(alert: "app/promo", scope: .user, shownAt: [yesterday])
/// let verdict = rule.verdict(alert: "app/promo", history: history, now: now)   // .capped(…)
/// ```
public struct PacingHistory: Sendable, Equatable {
    /// An alert's deliveries in one scope.
    public struct Key: Hashable, Sendable {
        public var alert: String
        public var scope: Pacing.Scope

        public init(alert: String, scope: Pacing.Scope) {
            self.alert = alert
            self.scope = scope
        }
    }

    /// What is known of one key. A step judges a handful of keys: a list, searched in order.
    private struct Entry: Equatable, Sendable {
        var key: Key
        /// Deliveries as read in full, oldest first.
        var shown: [Date] = []
        /// Deliveries as read for the rules' needs.
        var read: Read?
        /// Shown at least once, however long ago (`Pacing.Once`).
        var ever = false
        /// The deliveries this step made, oldest first.
        var step: [Date] = []
    }

    private var entries: [Entry] = []
    /// The deliveries this step made, for the store to keep.
    public private(set) var recorded: [(alert: String, at: Date)] = []

    public init() {}

    private func entry(_ key: Key) -> Entry? { entries.first { $0.key == key } }

    private mutating func update(_ key: Key, _ change: (inout Entry) -> Void) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            change(&entries[index])
        } else {
            var entry = Entry(key: key)
            change(&entry)
            entries.append(entry)
        }
    }

    /// Adds what the store read: every delivery `times` (in any order) in the longest period a
    /// rule may name, and whether the alert was shown in `scope` before them (`ever`).
    public mutating func add(alert: String, scope: Pacing.Scope, shownAt times: [Date], ever: Bool = false) {
        update(Key(alert: alert, scope: scope)) { entry in
            if !times.isEmpty {
                entry.shown.append(contentsOf: times)
                entry.shown.sort()
            }
            if ever || !times.isEmpty { entry.ever = true }
        }
    }

    /// Adds what the store read of a key for the rules' `Needs`.
    public mutating func add(alert: String, scope: Pacing.Scope, read: Read) {
        update(Key(alert: alert, scope: scope)) { entry in
            entry.read = read
            if read.ever { entry.ever = true }
        }
    }

    /// The key under which every modal shown is kept while a session-wide rule counts them
    /// (`SessionProfile.minModalGap`, `.maxModalsPerDay`); no alert id has its form.
    public static let modals = "*modal"

    /// The step delivered `alert` at `at`: it counts in both scopes from now on. A step records
    /// at most one delivery of an alert (`Needs` asks for the rank before each it counts).
    public mutating func recordShown(alert: String, at: Date) {
        for scope in Pacing.Scope.allCases {
            update(Key(alert: alert, scope: scope)) { entry in
                entry.step.append(at)
                entry.ever = true
            }
        }
        recorded.append((alert, at))
    }

    // MARK: What the rules ask

    /// Whether `key` was ever shown.
    public func ever(_ key: Key) -> Bool { entry(key)?.ever ?? false }

    /// How many deliveries of `key` fall in `window`.
    public func count(_ key: Key, in window: Window) -> Int {
        guard let entry = entry(key) else { return 0 }
        let own = entry.step.count(where: window.holds)
        if let read = entry.read {
            guard let count = read.count(in: window) else {
                assertionFailure("a pacing window read for none of the rules judged")
                return own
            }
            return count + own
        }
        return entry.shown.count(where: window.holds) + own
    }

    /// The time of `key`'s `rank`-th newest delivery (1: the last), nil when there are fewer.
    public func newest(_ key: Key, rank: Int) -> Date? {
        guard let entry = entry(key) else { return nil }
        if rank <= entry.step.count { return entry.step[entry.step.count - rank] }
        let rank = rank - entry.step.count
        if let read = entry.read { return read.time(ofRank: rank) }
        guard rank <= entry.shown.count else { return nil }
        return entry.shown[entry.shown.count - rank]
    }

    public static func == (lhs: PacingHistory, rhs: PacingHistory) -> Bool {
        lhs.entries == rhs.entries && lhs.recorded.map(\.alert) == rhs.recorded.map(\.alert)
            && lhs.recorded.map(\.at) == rhs.recorded.map(\.at)
    }
}
