import Dispatch
import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The cache behind renderings, checked alerts and negotiated locales: bounded, least recently
// used in effect, and not flushed by keys asked for once each.

@Suite("BoundedCache")
struct BoundedCacheTests {
    /// A cache of one shard: its generations hold `capacity / 2` entries each.
    func cache(capacity: Int) -> BoundedCache<String, Int> {
        BoundedCache(capacity: capacity, shards: 1)
    }

    @Test("a value kept is found, a value never kept is not, and capacity 0 keeps nothing")
    func keepsAndFinds() {
        let kept = cache(capacity: 8)
        kept.insert(1, for: "a")
        #expect(kept.value(for: "a") == 1)
        #expect(kept.value(for: "b") == nil)

        let none = cache(capacity: 0)
        none.insert(1, for: "a")
        none.insert(1, for: "a")
        #expect(none.value(for: "a") == nil)
        #expect(none.count == 0)
    }

    @Test("never holds more than its capacity, however many keys pass, each offered twice")
    func bounded() {
        let cache = BoundedCache<String, Int>(capacity: 64, shards: 4)
        for key in 0..<1_000 {
            cache.insert(key, for: "k\(key)")
            cache.insert(key, for: "k\(key)")
            #expect(cache.count <= 64)
        }
        // And the latest keys are there
        #expect(cache.value(for: "k999") == 999)
    }

    @Test("a key in use survives while others age out")
    func leastRecentlyUsed() {
        let cache = cache(capacity: 8)
        cache.insert(0, for: "hot")
        for key in 0..<100 {
            // Each newcomer is offered twice (admitted once the cache is full), the hot key read
            cache.insert(key, for: "k\(key)")
            cache.insert(key, for: "k\(key)")
            #expect(cache.value(for: "hot") == 0, "lost after \(key) others")
        }
        #expect(cache.value(for: "k0") == nil)
    }

    @Test("before it is full, a key is kept the first time it is offered")
    func admitsWhileRoom() {
        let cache = cache(capacity: 8)
        for key in 0..<4 { cache.insert(key, for: "k\(key)") }
        for key in 0..<4 { #expect(cache.value(for: "k\(key)") == key) }
    }

    @Test("once full, keys offered once each do not push out the ones in use; a key offered twice gets in")
    func doorkeeper() {
        // Given a full cache of four keys
        let cache = cache(capacity: 8)
        for key in 0..<4 { cache.insert(key, for: "hot\(key)") }
        // When a thousand keys are offered once each (ever new parameters)
        for key in 0..<1_000 { cache.insert(key, for: "once\(key)") }
        // Then the four are all still there, without being read in between
        for key in 0..<4 { #expect(cache.value(for: "hot\(key)") == key) }
        #expect(cache.value(for: "once999") == nil)
        // And a key offered a second time is admitted
        cache.insert(7, for: "twice")
        #expect(cache.value(for: "twice") == nil)
        cache.insert(7, for: "twice")
        #expect(cache.value(for: "twice") == 7)
    }

    @Test("value(for:orMake:) makes a value once it is kept, and caches no error")
    func orMake() throws {
        struct Failed: Error {}
        let cache = cache(capacity: 8)
        var made = 0
        for _ in 0..<3 { #expect(cache.value(for: "a", orMake: { made += 1; return 5 }) == 5) }
        #expect(made == 1)
        #expect(throws: Failed.self) { try cache.value(for: "b", orMake: { throw Failed() }) }
        #expect(cache.value(for: "b", orMake: { 6 }) == 6)
    }

    @Test("threads reading and filling it at once agree on every value (run under TSan too)")
    func concurrent() {
        let cache = BoundedCache<Int, Int>(capacity: 256)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<2_000 {
                let key = (round * 7 + thread) % 600
                let value = cache.value(for: key) { key * 3 }
                precondition(value == key * 3)
            }
        }
        #expect(cache.count <= 256)
    }
}
