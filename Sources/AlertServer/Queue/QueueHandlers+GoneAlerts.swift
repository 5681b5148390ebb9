import AlertCatalogs
import AlertQueue
import AlertSpec
import Logging

/// Items whose alert the catalogs no longer render: its catalog file was removed or changed
/// and the catalogs reloaded since it was queued. Such an item can never be shown, so `next`
/// cancels it and goes on to the next item, instead of answering an error until it dies.
extension QueueHandlers {
    /// Whether `error`, from rendering an item, means its alert cannot be rendered any more (no
    /// such catalog or type, or parameters it no longer takes), not a passing failure.
    static func isUndeliverable(_ error: any Error) -> Bool {
        if let error = error as? CatalogError { return error.isNotFound }
        return error is ParameterError || error is InvalidSpec
    }

    /// Cancels `item`, which `next` just took but cannot render, and logs why.
    func drop(_ item: QueueItem, because error: any Error) async throws {
        catalogs.logger.warning("queued alert cannot be rendered; cancelled", metadata: [
            "ticket": "\(item.ticket)", "alert": "\(item.content.alertID ?? "-")", "reason": "\(error)",
        ])
        _ = try await store.cancel(session: item.session, ticket: item.ticket, by: .undeliverable, now: clock.now())
    }

    /// `next`'s answer for `item`, taken from the store: its delivery, or, when its alert cannot
    /// be rendered any more, the item cancelled and the queue looked at again.
    func deliverOrSkip(_ item: QueueItem, for request: Request, look: () async throws -> any ResponseGenerator) async throws
        -> any ResponseGenerator
    {
        do {
            let response = try delivery(of: item, for: request)
            metrics.delivered()
            return response
        } catch where Self.isUndeliverable(error) {
            try await drop(item, because: error)
            return try await look()
        }
    }
}

extension QueueContent {
    /// `catalog/type` for a catalog alert, nil for an ad-hoc spec.
    var alertID: String? {
        if case .alert(let id, _) = self { return id }
        return nil
    }
}
