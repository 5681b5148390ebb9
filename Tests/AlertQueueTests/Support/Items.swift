import AlertQueue
import AlertSpec
import Foundation

/// The clock of every test: explicit instants, never sleeps.
let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// `seconds` after `t0`.
func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

let session = "s1"

/// An alert to enqueue; its dedupe key is its id unless given.
func alert(
    _ id: String, in session: String = session, priority: Int = 500, lane: Lane = .modal, key: String? = nil,
    ttl: Double? = nil, parameters: [String: ParameterValue] = [:]
) -> NewItem {
    NewItem(
        session: session, content: .alert(id: id, parameters: parameters), priority: priority, lane: lane,
        dedupeKey: key ?? id, ttl: ttl)
}

func hud(_ id: String, in session: String = session, priority: Int = 500) -> NewItem {
    alert(id, in: session, priority: priority, lane: .hud)
}

func toast(_ id: String, in session: String = session, priority: Int = 500) -> NewItem {
    alert(id, in: session, priority: priority, lane: .toast)
}

extension QueueItem {
    /// The alert id, for items queued as alerts.
    var alertID: String? {
        if case .alert(let id, _) = content { id } else { nil }
    }
}

extension QueueStore {
    /// Delivers and acknowledges until nothing is left; the alert ids in delivery order.
    func drain(session: String = session, now: Date = t0) async throws -> [String?] {
        var delivered: [String?] = []
        while let item = try await next(session: session, now: now), delivered.count < 100 {
            delivered.append(item.alertID)
            _ = try await ack(session: session, ticket: item.ticket, chain: nil, now: now)
        }
        return delivered
    }

    /// The alert ids of `items(session:now:)`.
    func listedIDs(session: String = session, now: Date = t0) async throws -> [String?] {
        try await items(session: session, now: now).map(\.alertID)
    }
}
