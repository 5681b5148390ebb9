import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Campaigns: one alert fanned out to an audience in batches, each session once, resumable, with
/// progress read from the copies and a recall that takes them back.
extension QueueStoreContract {
    func campaign(_ id: String, to audience: Audience, alert alertID: String = "app/promo", at now: Date = t0) -> Campaign {
        var template = alert(alertID, in: "", ttl: 3600)
        template.origin = .campaign
        return Campaign(id: id, template: template, audience: audience, createdAt: now)
    }

    /// Runs the campaign's fan-out to its end, `limit` sessions a batch; the batches.
    func fanOutAll(_ store: any CampaignStore, _ id: String, limit: Int, first: [String] = [], now: Date = t0) async throws -> [FanOut] {
        var batches: [FanOut] = []
        var first = first
        while batches.count < 1_000 {
            let batch = try await store.fanOut(campaign: id, first: first, limit: limit, now: now)
            first = []
            batches.append(batch)
            if batch.finished { break }
        }
        return batches
    }

    @Test("A campaign queues one copy on each session of its audience, in batches, and is done at its end", arguments: StoreFactory.all)
    func campaignFansOut(_ factory: StoreFactory) async throws {
        try await factory.withStore { queue in
            let store = try #require(queue as? any CampaignStore)
            let sessions = (0..<7).map { "c\($0)" }
            try await store.createCampaign(campaign("promo-1", to: .sessions(sessions)))
            #expect(try await store.runningCampaigns() == ["promo-1"])
            // When: batches of 3
            let batches = try await fanOutAll(store, "promo-1", limit: 3)
            // Then: 3 + 3 + 1, each session once, the campaign done
            #expect(batches.map(\.queued) == [["c0", "c1", "c2"], ["c3", "c4", "c5"], ["c6"]])
            #expect(batches.map(\.finished) == [false, false, true])
            let stored = try #require(try await store.campaign(id: "promo-1"))
            #expect(stored.state == .done && stored.targeted == 7 && stored.queued == 7 && stored.finishedAt == t0)
            #expect(try await store.runningCampaigns().isEmpty)
            let copy = try #require(try await queue.items(session: "c4", now: t0).first)
            #expect(copy.campaign == "promo-1" && copy.alertID == "app/promo" && copy.expiresAt == at(3600))
            // A done campaign fans out nothing more
            #expect(try await store.fanOut(campaign: "promo-1", first: [], limit: 3, now: t0) == FanOut(finished: true))
        }
    }

    @Test("Sessions waiting first are served first; no session gets two copies; duplicates and full queues are counted", arguments: StoreFactory.all)
    func campaignServesWaitingFirst(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(maxQueueLength: 1)) { queue in
            let store = try #require(queue as? any CampaignStore)
            _ = try await queue.enqueue(alert("app/promo", in: "dup"), now: t0)
            _ = try await queue.enqueue(alert("app/other", in: "full"), now: t0)
            try await store.createCampaign(campaign("promo-2", to: .sessions(["a", "b", "dup", "full", "z"])))
            // The first batch serves "z" (waiting) and a non-member first, then the page from the start
            let first = try await store.fanOut(campaign: "promo-2", first: ["z", "stranger"], limit: 2, now: t0)
            #expect(first.queued == ["z", "a"])
            let rest = try await fanOutAll(store, "promo-2", limit: 2)
            #expect(rest.flatMap(\.queued) == ["b"])
            #expect(rest.map(\.duplicates).reduce(0, +) == 1 && rest.map(\.refused).reduce(0, +) == 1)
            #expect(try await queue.items(session: "z", now: t0).count == 1)
            #expect(try await queue.items(session: "stranger", now: t0).isEmpty)
            let stored = try #require(try await store.campaign(id: "promo-2"))
            #expect(stored.targeted == 5 && stored.queued == 3 && stored.duplicates == 1 && stored.refused == 1)
        }
    }

    @Test("A campaign id is taken once; the listing is newest first, in pages", arguments: StoreFactory.all)
    func campaignIDsAndListing(_ factory: StoreFactory) async throws {
        try await factory.withStore { queue in
            let store = try #require(queue as? any CampaignStore)
            for (index, id) in ["x1", "x2", "x3"].enumerated() {
                try await store.createCampaign(campaign(id, to: .sessions(["s"]), at: at(Double(index))))
            }
            await #expect(throws: CampaignError.exists("x2")) { try await store.createCampaign(campaign("x2", to: .topic("t"))) }
            #expect(try await store.campaigns(before: nil, limit: 2).map(\.id) == ["x3", "x2"])
            #expect(try await store.campaigns(before: "x2", limit: 2).map(\.id) == ["x1"])
            #expect(try await store.campaign(id: "nope") == nil)
            #expect(try await store.progress(campaign: "nope") == nil)
            #expect(try await store.recall(campaign: "nope", now: t0) == nil)
        }
    }

    @Test("Progress counts the copies' deliveries, answers by action, withdrawals and expiries; a recall stops the fan-out", arguments: StoreFactory.all)
    func campaignProgressAndRecall(_ factory: StoreFactory) async throws {
        try await factory.withStore { queue in
            let store = try #require(queue as? any CampaignStore)
            try await store.createCampaign(campaign("promo-3", to: .sessions(["a", "b", "c", "d", "e"])))
            _ = try await store.fanOut(campaign: "promo-3", first: [], limit: 4, now: t0)
            // a answers "ok", b shows it, c and d wait
            for session in ["a", "b"] { _ = try await queue.next(session: session, now: at(1)) }
            let answered = try #require(try await queue.items(session: "a", now: at(1)).first)
            _ = try await queue.acknowledge(session: "a", ticket: answered.ticket, input: nil, now: at(2)) { _ in
                AckAnswer(action: "ok", role: "primary")
            }
            // When the campaign is recalled before it reached e
            let recall = try #require(try await store.recall(campaign: "promo-3", now: at(10)))
            #expect(recall == Recall(cancelled: 2, withdrawn: 1, sessions: ["b"]))
            #expect(try await store.campaign(id: "promo-3")?.state == .recalled)
            #expect(try await store.fanOut(campaign: "promo-3", first: ["e"], limit: 4, now: at(11)) == FanOut(finished: true))
            #expect(try await queue.items(session: "e", now: at(11)).isEmpty)
            let progress = try #require(try await store.progress(campaign: "promo-3"))
            var expected = CampaignProgress()
            expected.delivered = 2
            expected.answered = 1
            expected.actions = ["ok": 1]
            expected.withdrawn = 1
            expected.cancelled = 2
            #expect(progress == expected)
        }
    }
}

/// Audiences read from the session registry: a topic, users, sessions seen lately.
extension QueueStoreContract {
    @Test("A campaign to a topic, to users, or to sessions seen lately reaches the registry's sessions", arguments: StoreFactory.all)
    func campaignAudiencesFromRegistry(_ factory: StoreFactory) async throws {
        try await factory.withStore { queue in
            let store = try #require(queue as? any CampaignStore)
            // Given: five sessions, two of ana's, three in beta, one seen long ago
            _ = try await queue.register(session: "phone", user: "ana", topics: ["beta"], now: at(1_000))
            _ = try await queue.register(session: "tablet", user: "ana", topics: [], now: at(1_000))
            _ = try await queue.register(session: "old", user: "bo", topics: ["beta"], now: t0)
            _ = try await queue.register(session: "zed", user: nil, topics: ["beta"], now: at(1_000))
            _ = try await queue.register(session: "mid", user: "cy", topics: ["gamma"], now: at(1_000))
            // When
            try await store.createCampaign(campaign("to-beta", to: .topic("beta"), at: at(2_000)))
            try await store.createCampaign(campaign("to-users", to: .users(["ana", "cy", "nobody"]), alert: "app/b", at: at(2_000)))
            try await store.createCampaign(campaign("to-seen", to: .seenWithin(seconds: 1_500), alert: "app/c", at: at(2_000)))
            let beta = try await fanOutAll(store, "to-beta", limit: 2).flatMap(\.queued)
            let users = try await fanOutAll(store, "to-users", limit: 2, first: ["tablet", "old"]).flatMap(\.queued)
            let seen = try await fanOutAll(store, "to-seen", limit: 10).flatMap(\.queued)
            // Then: in session order, waiting members first, strangers never
            #expect(beta == ["old", "phone", "zed"])
            #expect(users == ["tablet", "mid", "phone"])
            #expect(seen == ["mid", "phone", "tablet", "zed"])
            #expect(try await store.campaign(id: "to-users")?.targeted == 3)
        }
    }
}
