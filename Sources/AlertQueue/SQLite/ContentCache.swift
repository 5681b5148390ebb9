import Foundation

/// Decoded `content` columns by their JSON text. Every step loads the session's live items, so
/// the same few contents would be decoded again and again (JSON decoding was a quarter of a
/// step). It only ever holds what decoding the text gives (not the value that was encoded,
/// which may differ: `2.0` is written `2` and read back as an integer), so a hit and a miss
/// give the same item. Bounded by the size of the texts it keeps: when full, it starts again
/// empty.
final class ContentCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: QueueContent] = [:]
    private var size = 0
    /// Bytes of JSON text kept at most.
    let limit: Int

    init(limit: Int = 8 << 20) {
        self.limit = limit
    }

    /// The content stored as `json`.
    func content(json: String) throws -> QueueContent {
        if let content = lock.withLock({ entries[json] }) { return content }
        let content = try StoredContent.content(json: json)
        remember(content, as: json)
        return content
    }

    /// The JSON text to store for `content`.
    func json(_ content: QueueContent) throws -> String {
        try StoredContent.json(content)
    }

    private func remember(_ content: QueueContent, as json: String) {
        let cost = json.utf8.count
        guard cost <= limit / 16 else { return }
        lock.withLock {
            guard entries[json] == nil else { return }
            if size + cost > limit {
                entries.removeAll(keepingCapacity: true)
                size = 0
            }
            entries[json] = content
            size += cost
        }
    }
}
