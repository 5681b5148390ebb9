import AlertCatalogs
import AlertQueue
import AlertSpec
import Foundation

/// What a queue item becomes on delivery, and what an acknowledged action queues next.
enum ItemRendering {
    /// The item's spec in the client's locale (`?locale=`, else `Accept-Language`), with the
    /// priority it was queued with. An ad-hoc spec is delivered as written, its language
    /// undetermined (`und`).
    static func spec(of item: QueueItem, locale: String?, acceptLanguage: String?, catalogs: CatalogRegistry) throws -> AlertSpec {
        var spec = try rendered(item, locale: locale, acceptLanguage: acceptLanguage, catalogs: catalogs)
        spec.priority = item.priority
        return spec
    }

    private static func rendered(_ item: QueueItem, locale: String?, acceptLanguage: String?, catalogs: CatalogRegistry) throws -> AlertSpec {
        switch item.content {
        case .alert(let id, let parameters):
            let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, let catalog = catalogs[parts[0]] else { throw CatalogError.unknownCatalog(parts.first ?? id) }
            return try catalog.render(
                type: parts[1], parameters: parameters, locale: catalog.locale(for: locale, acceptLanguage: acceptLanguage))
        case .spec(let draft):
            return draft.spec(id: "adhoc/\(item.ticket)", locale: "und")
        }
    }

    /// The alert a `next` action queues when the user picks `action` (a button id; for cards,
    /// `<page>.action` or `<page>.alternative`), or nil for any other action. 422 for an action
    /// the item does not have.
    static func chain(of item: QueueItem, action: String, catalogs: CatalogRegistry) throws -> NewItem? {
        let body = try spec(of: item, locale: nil, acceptLanguage: nil, catalogs: catalogs).body
        guard let picked = actions(of: body)[action] else {
            throw APIError.invalidRequest([SpecIssue(pointer: "/action", code: "unknown-action", message: "This alert has no action \"\(action)\".")])
        }
        guard case .next(let alert, let parameters) = picked else { return nil }
        var issues: [SpecIssue] = []
        let (draft, key) = EnqueueRequest.checkAlert(alert, parameters, catalogs, &issues)
        guard let draft, let key else { throw APIError.invalidRequest(issues) }
        return NewItem(
            session: item.session, content: .alert(id: alert, parameters: parameters), priority: draft.priority,
            lane: draft.kind.lane, dedupeKey: key, atHead: true)
    }

    /// Every action of a spec by the id the client acknowledges with.
    static func actions(of body: AlertSpec.Body) -> [String: AlertActionType] {
        var actions: [String: AlertActionType] = [:]
        switch body {
        case .alert(let dialog): for action in dialog.actions { actions[action.id] = action.action }
        case .sheet(let sheet): for action in sheet.options + [sheet.cancel] { actions[action.id] = action.action }
        case .card(let card):
            for page in card.pages {
                if let button = page.actionButton { actions[page.id + ".action"] = button.action }
                if let button = page.alternativeButton { actions[page.id + ".alternative"] = button.action }
            }
        case .hud, .toast: break
        }
        return actions
    }
}
