/// An alert's id, `catalog/type`, read as its two parts: the catalog's name before the first
/// `/`, the type after it, neither empty.
///
/// ```swift
/// AlertID("app/newMessages")   // catalog "app", type "newMessages"
/// AlertID("newMessages")       // nil
/// ```
///
/// Every enqueue reads one: `split(separator:maxSplits:)` made an array of substrings and an
/// array of strings for it, 3,000 instructions under `make bench-instructions`.
public struct AlertID: Hashable, Sendable {
    public var catalog: String
    public var type: String

    public init?(_ id: String) {
        guard let slash = id.utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let catalog = id[..<slash]
        let type = id[id.utf8.index(after: slash)...]
        guard !catalog.isEmpty, !type.isEmpty else { return nil }
        self.catalog = String(catalog)
        self.type = String(type)
    }
}
