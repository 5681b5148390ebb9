import AlertQueue
import AlertSpec
import Foundation
import Testing

/// A store may read a window of a long session instead of every item; what it answers must
/// still be what `QueuePolicy` decides over every item (`FullScanModel`), step by step.
extension QueueStoreContract {
    @Test("A session of 1,000 items answers every step as a full scan would", arguments: StoreFactory.all)
    func longSession(_ factory: StoreFactory) async throws {
        // A limit the session reaches, so that refusals are compared too
        let settings = QueueSettings(leaseDuration: 30, maxDeliveries: 2, maxQueueLength: LongSessionRun.items / 2)
        try await factory.withStore(settings) { store in
            var run = LongSessionRun(store: store, model: FullScanModel(settings: settings, session: session))
            // Given: 1,000 enqueues (duplicates among them, half refreshing), with deliveries, acks,
            // chains, cancels and holds among them
            for index in 0..<LongSessionRun.items {
                try await run.enqueue(index: index)
                if index % 7 == 0 { try await run.next() }
                if index % 11 == 0 { try await run.acknowledge() }
                if index % 13 == 0 { try await run.cancel() }
                if index % 97 == 0 { try await run.hold() }
                if index % 250 == 0 { try await run.compareListings() }
                run.now += 1
            }
            try await run.compareListings()
            // When: the session is drained, leases left to end now and then
            var steps = 0
            while run.model.items.contains(where: \.state.isLive), steps < LongSessionRun.items * 3 {
                try await run.next()
                if steps % 5 != 0 { try await run.acknowledge() }
                if steps % 50 == 0 { try await run.compareListings() }
                run.now += steps % 9 == 0 ? 31 : 1
                steps += 1
            }
            // Then
            try await run.compareListings()
            let left = run.model.items.filter { $0.state.isLive }.count
            #expect(left == 0)
            #expect(run.refusals > 0, "the queue limit was never reached")
            #expect(run.refreshes > 0, "no duplicate ever refreshed a queued item")
        }
    }
}

/// One run of `longSession`: each step asked of the store and of the model, the answers compared.
private struct LongSessionRun {
    static let items = Int(ProcessInfo.processInfo.environment["LONG_SESSION_ITEMS"] ?? "") ?? 1_000
    let store: any QueueStore
    var model: FullScanModel
    var now = t0
    var random = SplitMix64(seed: 7)
    /// Enqueues refused alike by the store and the model (the queue was full).
    var refusals = 0
    /// Duplicates that refreshed a queued item, alike in the store and the model.
    var refreshes = 0

    private var tickets: [String] { model.items.map(\.ticket) }

    init(store: any QueueStore, model: FullScanModel) {
        self.store = store
        self.model = model
    }

    mutating func enqueue(index: Int) async throws {
        let lanes: [Lane] = [.modal, .modal, .modal, .toast, .toast, .hud]
        let priorities = [100, 300, 500, 500, 900, 1000]
        let key = random.next(below: 20) == 0 ? "key\(random.next(below: index + 1))" : "key\(index)"
        let ttl = random.next(below: 5) == 0 ? Double(50 + random.next(below: 3_000)) : nil
        var new = alert(
            "app/i\(index)", priority: priorities[random.next(below: priorities.count)],
            lane: lanes[random.next(below: lanes.count)], key: key, ttl: ttl)
        new.atHead = random.next(below: 50) == 0
        new.onDuplicate = random.next(below: 2) == 0 ? .refresh : .keep
        let delivering = index % 10 == 3
        let (store, now) = (store, now)
        let stored = try await Result.of { () async throws -> (enqueued: EnqueueResult, delivered: QueueItem?) in
            if delivering { return try await store.enqueueThenNext(new, now: now) }
            return (try await store.enqueue(new, now: now), nil)
        }
        let drawn = try? stored.get().enqueued.item
        let expected = model.enqueue(
            new, ticket: drawn?.ticket ?? "unqueued", sequence: drawn?.sequence ?? .max, now: now, delivering: delivering)
        switch (stored, expected) {
        case (.success(let got), .success(let want)):
            try #require(got.enqueued == want.enqueued, "enqueue \(index)")
            try #require(got.delivered == want.delivered, "delivery after enqueue \(index)")
            if got.enqueued.refreshed { refreshes += 1 }
        case (.failure(let got), .failure(let want)):
            try #require(got == want, "enqueue \(index)")
            refusals += 1
        default:
            Issue.record("enqueue \(index): the store answered \(stored), a full scan \(expected)")
            throw CancellationError()
        }
    }

    @discardableResult
    mutating func next() async throws -> QueueItem? {
        let delivered = try await store.next(session: session, now: now)
        let expected = model.next(now: now)
        try #require(delivered == expected, "next at \(now)")
        return delivered
    }

    mutating func acknowledge() async throws {
        let presenting = model.items.filter { $0.state == .presenting }.map(\.ticket)
        let all = tickets
        guard let ticket = random.next(below: 5) == 0 ? all.randomElement(using: &random) : presenting.last else {
            return
        }
        let chain: NewItem? =
            random.next(below: 3) == 0
            ? alert("app/chain", lane: [.modal, .toast, .hud][random.next(below: 3)], key: "chain\(random.next(below: 4))")
            : nil
        let (store, now) = (store, now)
        let stored = try await Result.of { try await store.acknowledge(session: session, ticket: ticket, now: now) { _ in chain } }
        let chained = try? stored.get().chained
        let policy = model.policy
        let chainItem = chain.map {
            policy.makeItem($0, ticket: chained?.ticket ?? "", sequence: chained?.sequence ?? .max, now: now)
        }
        let expected = model.acknowledge(ticket: ticket, chain: chainItem, now: now)
        try #require(stored == expected, "ack of \(ticket) at \(now)")
    }

    mutating func cancel() async throws {
        let all = tickets
        guard let ticket = all.randomElement(using: &random) else { return }
        let (store, now) = (store, now)
        let stored = try await Result.of { try await store.cancel(session: session, ticket: ticket, now: now) }
        let expected = model.cancel(ticket: ticket, now: now)
        try #require(stored == expected, "cancel of \(ticket) at \(now)")
    }

    mutating func hold() async throws {
        let until = now.addingTimeInterval(20)
        try await store.hold(session: session, until: until)
        model.holdUntil = until
    }

    mutating func compareListings() async throws {
        let listed = try await store.items(session: session, now: now)
        let expected = model.listing(now: now)
        try #require(listed == expected, "listing at \(now)")
    }
}

/// A seeded generator: the same run every time.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
