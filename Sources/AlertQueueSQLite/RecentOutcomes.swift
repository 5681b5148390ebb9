import AlertQueue
import Foundation
import Locking

/// The events this store committed lately, as the outcome roll-up counts them, kept in memory
/// so that the roll-up need not read them back (`SQLiteQueueStore.rollUpOutcomes`).
///
/// Reading them back, each with its item's content for the alert, cost about 11,000
/// instructions an event, and the reads of WAL pages a system call each: a tenth of a cycle's
/// CPU time (`scripts/bench-queue.sh`, timeline on). The roll-up uses what is kept only when it
/// is exactly what the file holds after the cursor (the same count and sum of ids): events
/// another process wrote, or events erased meanwhile, send it back to reading the file.
final class RecentOutcomes: Sendable {
    /// What the roll-up reads of one event.
    struct Event: Sendable {
        var id: Int64
        /// Its session, so that erasing it forgets them (`forget(session:)`).
        var session: String
        var kind: ItemEvent.Kind
        var day: OutcomeDay
        var alert: String?
        var action: String?
        var role: String?
        var onScreen: Double?
    }

    /// Events kept at most; past it, new ones are not kept, and the roll-up reads the file until
    /// it has passed them.
    static let capacity = 200_000

    /// In id order: each transaction's events come after every committed one's.
    private let events = Locked<[Event]>([])

    /// Keeps `written` once their transaction commits (`TransactionEnd.onCommit`).
    func kept(_ written: [Event]) {
        guard !written.isEmpty else { return }
        events.withLock { events in
            guard events.count + written.count <= Self.capacity else { return }
            events.append(contentsOf: written)
        }
    }

    /// Up to `limit` events after `cursor`, and the count and sum of their ids for the check.
    func after(_ cursor: EventCursor, limit: Int) -> [Event] {
        events.withLock { events in
            let start = events.firstIndex { $0.id > cursor.id } ?? events.endIndex
            return Array(events[start..<min(events.endIndex, start + limit)])
        }
    }

    /// The roll-up is past `cursor`: what it counted is no longer kept.
    func counted(through cursor: EventCursor) {
        events.withLock { events in
            let end = events.firstIndex { $0.id > cursor.id } ?? events.endIndex
            events.removeSubrange(..<end)
        }
    }

    /// The session was erased: its events will never be counted.
    func forget(session: String) {
        events.withLock { $0.removeAll { $0.session == session } }
    }

    static func event(_ event: ItemEvent, id: Int64, alert: String?) -> Event {
        var kept = Event(id: id, session: event.session, kind: event.kind, day: OutcomeDay(event.at), alert: alert)
        if event.kind == .acknowledged {
            (kept.action, kept.role, kept.onScreen) = OutcomeTally.answer(in: event.detail)
        }
        return kept
    }
}
