import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

/// What one request of `alertd.lock_windows` asks to read of its session, beside the presenting
/// items and the queued ones whose TTL ended: the live item with `dedupeKey`, the item `ticket`,
/// the queued HUDs; and the counts that place a new item of `lane` (none when '').
struct WindowRequest {
    var session: String
    var ticket = ""
    var dedupeKey = ""
    var huds = false
    var lane = ""
    var priority = 0
    var atHead = false

    /// What an enqueue of `new` reads: the holder of its key, the HUDs it would replace, its place.
    static func enqueue(_ new: NewItem) -> WindowRequest {
        WindowRequest(
            session: new.session, dedupeKey: new.dedupeKey, huds: new.lane == .hud, lane: new.lane.rawValue,
            priority: new.priority, atHead: new.atHead)
    }
}

/// The answer of `alertd.lock_windows`: the windows of the requests' sessions, locked until the
/// transaction ends, and what the function counted for each request.
struct LockedWindows {
    /// The database's `now()`, seconds since 1970.
    let databaseNow: Double
    let sequences: [Int64]
    /// Every session's window, oldest first.
    let items: [QueueItem]
    /// For each request: the live items of its session, the queued items a new item of its lane
    /// queues behind, and those ahead of the queued item holding its dedupe key.
    let live: [Int]
    let ahead: [Int]
    let holderAhead: [Int]

    /// The window of `session` as a step's items. `positioned` pairs each item to queue with
    /// the index of its request: its place, and that of the live item holding its key, are
    /// counted for the policy's answers (`SessionItems.Unloaded`); none for a step that neither
    /// limits the queue nor reports a position.
    func sessionItems(_ session: String, positioned: [(item: QueueItem, request: Int)] = []) -> SessionItems {
        let window = items.filter { $0.session == session }
        guard let first = positioned.first else { return SessionItems(session: session, items: window) }
        var counted = positioned.map { (item: $0.item, ahead: ahead[$0.request]) }
        for (item, request) in positioned {
            if let holder = window.first(where: { $0.state.isLive && $0.dedupeKey == item.dedupeKey }),
                !counted.contains(where: { $0.item.ticket == holder.ticket })
            {
                counted.append((holder, holderAhead[request]))
            }
        }
        let unloaded = SessionItems.Unloaded(window: window, live: live[first.request], positioned: counted)
        return SessionItems(session: session, items: window, unloaded: unloaded)
    }

    /// These windows with the items of `other` they lack, for a step that read twice.
    func adding(_ other: LockedWindows) -> [QueueItem] {
        let tickets = Set(items.map(\.ticket))
        return (items + other.items.filter { !tickets.contains($0.ticket) }).sorted { $0.sequence < $1.sequence }
    }
}

extension PostgresQueueStore {
    /// Locks the requests' sessions and reads their windows (`alertd.lock_windows`), with
    /// `sequences` fresh enqueue sequences: one round trip. `now` is the step's time when the
    /// caller's clock counts (the TTLs it ends are read), else the database's is used.
    func lockWindows(
        _ requests: [WindowRequest], sequences: Int, now: Date?, on connection: PostgresConnection
    ) async throws -> LockedWindows {
        func column<Element>(_ value: (WindowRequest) -> Element) -> BinaryArray<Element> { BinaryArray(requests.map(value)) }
        let due = options.clock == .caller ? now?.timeIntervalSince1970 ?? .nan : .nan
        let rows = try await connection.query(
            """
            SELECT * FROM alertd.lock_windows(\(column(\.session))::text[], \(sequences)::integer, \(due)::float8, \
            \(column(\.ticket))::text[], \(column(\.dedupeKey))::text[], \(column(\.huds))::boolean[], \
            \(column(\.lane))::text[], \(column { Int64($0.priority) })::bigint[], \(column(\.atHead))::boolean[])
            """, logger: logger
        ).collect()
        guard let first = rows.first else { throw PostgresStoreError.unreadableRow("lock_windows returned no row") }
        let columns = first.makeRandomAccess()
        let counts = try (15...17).map { try columns[$0].decode([Int64].self).map(Int.init) }
        // The function returns the window's parts one after another: an item may come twice.
        var seen: Set<String> = []
        let items = try rows.filter { $0.makeRandomAccess()[0].bytes != nil }.map { try ItemRow.item(from: $0, contents: contents) }
            .filter { seen.insert($0.ticket).inserted }.sorted { $0.sequence < $1.sequence }
        let windows = LockedWindows(
            databaseNow: try columns[13].decode(Double.self), sequences: try columns[14].decode([Int64].self), items: items,
            live: counts[0], ahead: counts[1], holderAhead: counts[2])
        guard windows.sequences.count == sequences, counts.allSatisfy({ $0.count == requests.count }) else {
            throw PostgresStoreError.unreadableRow("lock_windows returned counts or sequences for other requests")
        }
        return windows
    }
}
