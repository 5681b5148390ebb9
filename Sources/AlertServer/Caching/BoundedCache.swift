import Locking

/// A bounded map from keys to values that any thread may read and fill, for results that are
/// pure functions of their key (a rendered alert, a checked alert).
///
/// Keys are spread over shards, each behind its own lock, so threads looking up different keys
/// rarely meet. Each shard keeps two generations: lookups are served from either and move what
/// they find into the young one; when the young generation is full, the old one is dropped and
/// the young one becomes old. What is used stays, what is not ages out: least-recently-used in
/// effect, at the cost of one dictionary operation per lookup and no per-entry bookkeeping.
///
/// ```swift
/// let cache = BoundedCache<String, [UInt8]>(capacity: 4096)
/// let bytes = try cache.value(for: key) { try render(key) }
/// ```
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Shard {
        var young: [Key: Value] = [:]
        var old: [Key: Value] = [:]
    }

    private let shards: [Locked<Shard>]
    /// How many entries a shard's young generation holds before it ages.
    private let generationSize: Int

    /// - Parameter capacity: about how many entries the cache keeps at most (it may hold up to
    ///   this many recently used ones, never more); 0 keeps nothing.
    init(capacity: Int, shards shardCount: Int = 16) {
        let shardCount = max(1, shardCount)
        self.generationSize = max(0, capacity) / (2 * shardCount)
        self.shards = (0..<shardCount).map { _ in Locked(Shard()) }
    }

    /// The value cached for `key`, if any.
    func value(for key: Key) -> Value? {
        shard(for: key).withLock { shard in
            if let value = shard.young[key] { return value }
            guard let value = shard.old.removeValue(forKey: key) else { return nil }
            Self.insert(value, for: key, into: &shard, generationSize: generationSize)
            return value
        }
    }

    /// Keeps `value` for `key`.
    func insert(_ value: Value, for key: Key) {
        guard generationSize > 0 else { return }
        shard(for: key).withLock { Self.insert(value, for: key, into: &$0, generationSize: generationSize) }
    }

    /// The value for `key`, made by `make` (outside any lock) and kept when it was not cached.
    /// Errors are not cached.
    func value(for key: Key, orMake make: () throws -> Value) rethrows -> Value {
        if let value = value(for: key) { return value }
        let value = try make()
        insert(value, for: key)
        return value
    }

    private func shard(for key: Key) -> Locked<Shard> {
        // `&` keeps the index non-negative whatever the hash; shard counts need not be powers of two.
        shards[(key.hashValue & Int.max) % shards.count]
    }

    private static func insert(_ value: Value, for key: Key, into shard: inout Shard, generationSize: Int) {
        guard generationSize > 0 else { return }
        if shard.young.count >= generationSize, shard.young[key] == nil {
            shard.old = shard.young
            shard.young = [:]
            shard.young.reserveCapacity(generationSize)
        }
        shard.young[key] = value
    }
}
