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
/// A full shard admits a key only the second time it is offered (a doorkeeper, as in TinyLFU):
/// a stream of keys asked for once each (a count that changes with every request) then passes
/// through without aging out the entries that are asked for again and again. Until a shard is
/// full, every key is admitted at once.
///
/// ```swift
/// let cache = BoundedCache<String, [UInt8]>(capacity: 4096)
/// let bytes = try cache.value(for: key) { try render(key) }
/// ```
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Shard {
        var young: [Hashed: Value] = [:]
        var old: [Hashed: Value] = [:]
        /// The hashes of keys offered once while the shard was full, and not admitted.
        var offered: Set<Int> = []
    }

    /// A key with its hash worked out once: a lookup and an insert hash it once, not once per
    /// dictionary they touch (a rendering's key holds a dictionary of parameters, and hashing
    /// one hashes each of its entries apart).
    private struct Hashed: Hashable, Sendable {
        let key: Key
        let hash: Int

        init(_ key: Key) {
            self.key = key
            self.hash = key.hashValue
        }

        static func == (lhs: Hashed, rhs: Hashed) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
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

    /// How many entries the cache holds now.
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.withLock { $0.young.count + $0.old.count } }
    }

    /// The value cached for `key`, if any.
    func value(for key: Key) -> Value? {
        value(for: Hashed(key))
    }

    /// Keeps `value` for `key`, if the cache admits it (see above).
    func insert(_ value: Value, for key: Key) {
        insert(value, for: Hashed(key))
    }

    /// The value for `key`, made by `make` (outside any lock) and kept when it was not cached.
    /// Errors are not cached.
    func value<Failure: Error>(for key: Key, orMake make: () throws(Failure) -> Value) throws(Failure) -> Value {
        let hashed = Hashed(key)
        if let value = value(for: hashed) { return value }
        let value = try make()
        insert(value, for: hashed)
        return value
    }

    /// Drops every entry whose key `stale` picks (the renderings of a catalog that was reloaded).
    func removeAll(where stale: (Key) -> Bool) {
        for shard in shards {
            shard.withLock { shard in
                shard.young = shard.young.filter { !stale($0.key.key) }
                shard.old = shard.old.filter { !stale($0.key.key) }
            }
        }
    }

    private func value(for key: Hashed) -> Value? {
        shard(for: key).withLock { shard in
            if let value = shard.young[key] { return value }
            guard let value = shard.old.removeValue(forKey: key) else { return nil }
            // Used again: back into the young generation, admitted (it was once).
            Self.store(value, for: key, in: &shard, generationSize: generationSize)
            return value
        }
    }

    private func insert(_ value: Value, for key: Hashed) {
        guard generationSize > 0 else { return }
        shard(for: key).withLock { shard in
            if shard.young.count >= generationSize, shard.young[key] == nil {
                // Full: storing ages the shard. Only for a key offered before.
                guard shard.offered.remove(key.hash) != nil else {
                    if shard.offered.count >= 2 * generationSize { shard.offered.removeAll(keepingCapacity: true) }
                    shard.offered.insert(key.hash)
                    return
                }
            }
            Self.store(value, for: key, in: &shard, generationSize: generationSize)
        }
    }

    private func shard(for key: Hashed) -> Locked<Shard> {
        // `&` keeps the index non-negative whatever the hash; shard counts need not be powers of two.
        shards[(key.hash & Int.max) % shards.count]
    }

    private static func store(_ value: Value, for key: Hashed, in shard: inout Shard, generationSize: Int) {
        guard generationSize > 0 else { return }
        if shard.young.count >= generationSize, shard.young[key] == nil {
            shard.old = shard.young
            shard.young = [:]
            shard.young.reserveCapacity(generationSize)
        }
        shard.young[key] = value
    }
}
