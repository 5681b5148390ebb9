import AlertCatalogs
import AlertQueue
import AlertSpec

/// What a queue item becomes on delivery, and what an acknowledged action queues next.
enum ItemRendering {
    /// The item's spec for what the client asked (`?locale=`, else `Accept-Language`; the
    /// device), with the priority it was queued with. An ad-hoc spec is delivered as written,
    /// its language undetermined (`und`).
    static func rendering(of item: QueueItem, asked: ClientAsk, alerts: RenderedAlerts) throws -> RenderedAlerts.Rendering {
        switch item.content {
        case .alert(let id, let parameters):
            return try alerts.rendering(id, parameters, asked: asked).with(priority: item.priority)
        case .spec(let draft):
            var spec = draft.spec(id: "adhoc/\(item.ticket)", locale: "und")
            spec.priority = item.priority
            return try RenderedAlerts.Rendering(spec: spec, cacheControl: alerts.cacheControl)
        }
    }

    /// The item's spec in the catalog's source language: what its actions and input field are.
    static func rendering(of item: QueueItem, alerts: RenderedAlerts) throws -> RenderedAlerts.Rendering {
        try rendering(of: item, asked: ClientAsk(), alerts: alerts)
    }

    /// The role of `action` in the item's alert, for its timeline; nil when the alert cannot be
    /// rendered any more or has no such action.
    static func role(of item: QueueItem, action: String, alerts: RenderedAlerts) -> String? {
        (try? rendering(of: item, alerts: alerts))?.role(of: action)?.rawValue
    }

    /// The alert a `next` action queues when the user picks `action` (a button id; for cards,
    /// `<page>.action` or `<page>.alternative`), or nil for any other action. 422 for an action
    /// the item does not have.
    static func chain(of item: QueueItem, action: String, alerts: RenderedAlerts) throws -> NewItem? {
        let shown: RenderedAlerts.Rendering
        do {
            shown = try rendering(of: item, alerts: alerts)
        } catch where QueueHandlers.isUndeliverable(error) {
            return nil  // the alert is gone since it was shown: the ack stands, nothing follows it
        }
        guard let picked = shown.action(action) else {
            throw APIError.invalidRequest([SpecIssue(pointer: "/action", code: "unknown-action", message: "This alert has no action \"\(action)\".")])
        }
        guard case .next(let alert, let parameters) = picked else { return nil }
        switch alerts.check(alert, parameters) {
        case .success(let checked):
            return NewItem(
                session: item.session, content: .alert(id: alert, parameters: parameters), priority: checked.priority,
                lane: checked.lane, dedupeKey: checked.dedupeKey, atHead: true, origin: .chain, pacing: checked.pacing)
        case .failure(let found):
            throw APIError.invalidRequest(found.issues)
        }
    }
}
