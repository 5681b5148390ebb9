import AlertSpec

/// The client's ETag cache: per render URL, the entity tag the server gave and the spec its
/// bytes decoded to, so a `304` costs no download and no decoding. Bounded: storing past
/// `capacity` drops the least recently used entry (a scan, fine for the few hundred
/// renderings an app uses).
struct RenderCache {
    struct Entry {
        var etag: String
        var spec: AlertSpec
        fileprivate var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) { self.capacity = max(0, capacity) }

    var count: Int { entries.count }

    /// The entry for `url`, now the most recently used.
    mutating func entry(for url: String) -> Entry? {
        guard entries[url] != nil else { return nil }
        clock += 1
        entries[url]!.lastUse = clock
        return entries[url]
    }

    /// Keeps `spec` under `etag` for `url`, evicting the least recently used entry when full.
    mutating func store(_ spec: AlertSpec, etag: String, for url: String) {
        guard capacity > 0 else { return }
        if entries[url] == nil, entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            entries[oldest] = nil
        }
        clock += 1
        entries[url] = Entry(etag: etag, spec: spec, lastUse: clock)
    }

    /// Forgets `url` (its spec changed and came without a tag).
    mutating func remove(_ url: String) {
        entries[url] = nil
    }
}
