import AlertSpec
import Foundation

/// Decoded item contents, kept by a key that names one content: the item's ticket (the SQLite
/// store, which forgets it when a duplicate enqueue refreshes the item: `forget`), or the JSON
/// text itself when no key is given (the PostgreSQL store, where another instance may refresh
/// an item this one has kept). Every step loads the session's live items, so the same few contents would be
/// decoded again and again (JSON decoding was a quarter of a step). It only ever holds what
/// decoding the stored text gives (not the value that was encoded, which may differ: `2.0` is
/// written `2` and read back as an integer), so a hit and a miss give the same item. Bounded by
/// the size of the texts it keeps: when full, it starts again empty.
///
/// An item is kept from its insert when its text reads back as the content itself (see
/// `readsBackAsItself`): the steps that load it next, the enqueues of its session among them,
/// find it here. Kept only from the loads, nearly every item was parsed once, on the SQLite
/// writer's thread, which every write waits for: 9,500 of an enqueue's instructions in
/// `make bench-instructions`, more in `make bench-queue`, where each enqueue loads more items.
public final class ContentCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: QueueContent] = [:]
    private var size = 0
    /// Bytes of JSON text kept at most.
    let limit: Int

    public init(limit: Int = 8 << 20) {
        self.limit = limit
    }

    /// The content stored as `json`, kept under `key` (the text itself when nil).
    public func content(json: String, key: String? = nil) throws -> QueueContent {
        try content(key: key ?? json) { json }
    }

    /// The content kept under `key`; on a miss, the content stored as the text `json()` reads
    /// (only then: a hit never reads the text).
    public func content(key: String, json: () throws -> String) throws -> QueueContent {
        if let content = lock.withLock({ entries[key] }) { return content }
        let json = try json()
        let content = try StoredContent.content(json: json)
        remember(content, as: key, cost: json.utf8.count)
        return content
    }

    /// The JSON text to store for `content`; the content is kept under `key` (the text itself
    /// when nil) when it reads back as itself.
    public func json(_ content: QueueContent, key: String? = nil) throws -> String {
        let json = try StoredContent.json(content)
        if Self.readsBackAsItself(content) { remember(content, as: key ?? json, cost: json.utf8.count) }
        return json
    }

    /// Whether decoding `content`'s text gives `content` again: an alert whose parameters are
    /// strings, integers and booleans, which the text holds exactly (in SQLite, and in
    /// PostgreSQL's `jsonb`). Not a number (`2.0` reads back as an integer), nor a spec (a draft
    /// has too many fields to promise it).
    static func readsBackAsItself(_ content: QueueContent) -> Bool {
        guard case .alert(_, let parameters) = content else { return false }
        return parameters.values.allSatisfy { value in
            switch value {
            case .number: false
            case .integer, .string, .boolean: true
            }
        }
    }

    /// Drops what is kept under `key`: the content stored under it changed. Its size stays
    /// counted until the cache starts again (refreshes are rare).
    public func forget(key: String) {
        lock.withLock { _ = entries.removeValue(forKey: key) }
    }

    private func remember(_ content: QueueContent, as key: String, cost: Int) {
        guard cost <= limit / 16 else { return }
        lock.withLock {
            guard entries[key] == nil else { return }
            if size + cost > limit {
                entries.removeAll(keepingCapacity: true)
                size = 0
            }
            entries[key] = content
            size += cost
        }
    }
}
