import AlertQueue
import AlertSpec
import Foundation
import Testing

/// The event feed: every session's events, in commit order, each once, from a cursor.
extension QueueStoreContract {
    @Test("The feed gives every session's events in the order of the steps, with their items' alerts", arguments: StoreFactory.all)
    func feedInStepOrder(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let draft = SpecDraft(priority: 300, body: .hud(.init(state: .progress, text: "Uploading", progress: 0.25)))
            let a = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            let upload = NewItem(session: "s2", content: .spec(draft), priority: 300, lane: .hud, dedupeKey: "upload")
            let b = try await store.enqueue(upload, now: at(1)).item.ticket
            _ = try await store.next(session: session, now: at(2))
            _ = try await store.acknowledge(session: session, ticket: a, input: "hi", now: at(3)) { _ in
                AckAnswer(action: "ok", role: "primary")
            }
            // When
            let page = try await store.settledEvents(after: nil, limit: 100, count: 4)
            // Then
            let events = page.events
            try #require(events.count == 4)
            #expect(events.map(\.event.kind) == [.enqueued, .enqueued, .delivered, .acknowledged])
            #expect(events.map(\.event.ticket) == [a, b, a, a])
            #expect(events.map(\.alert) == ["app/a", nil, "app/a", "app/a"])
            #expect(events.map(\.event.at) == [t0, at(1), at(2), at(3)])
            #expect(events[3].event.detail["action"] == .string("ok"))
            #expect(events[3].event.detail["input"] == .string("hi"))
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
            #expect(page.next == events.last?.cursor)
        }
    }

    @Test("Pages from a cursor see each event once, and an empty page keeps the cursor", arguments: StoreFactory.all)
    func feedPages(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            for index in 0..<5 { _ = try await store.enqueue(alert("app/\(index)", in: "s\(index)"), now: at(Double(index))) }
            // When
            var seen: [String] = []
            var cursor: EventCursor?
            for _ in 0..<4 {
                let page = try await store.settledEvents(after: cursor, limit: 2, count: min(2, 5 - seen.count))
                seen += page.events.map(\.event.session)
                cursor = page.next
            }
            let empty = try await store.events(after: cursor, limit: 2)
            _ = try await store.enqueue(alert("app/late", in: "s9"), now: at(9))
            let late = try await store.settledEvents(after: cursor, limit: 2, count: 1)
            // Then
            #expect(seen == ["s0", "s1", "s2", "s3", "s4"])
            #expect(empty.events.isEmpty && empty.next == cursor)
            #expect(late.events.map(\.event.session) == ["s9"])
        }
    }

    @Test("An id is never given twice, even once the newest events were erased", arguments: StoreFactory.all)
    func feedIDsAfterErase(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given a reader past the newest event, which is then erased
            _ = try await store.enqueue(alert("app/a"), now: t0)
            _ = try await store.enqueue(alert("app/b", in: "s2"), now: t0)
            let read = try await store.settledEvents(after: nil, limit: 10, count: 2)
            _ = try await store.erase(session: "s2")
            // When another event is written
            _ = try await store.enqueue(alert("app/c", in: "s3"), now: t0)
            // Then the reader sees it after its cursor
            let next = try await store.settledEvents(after: read.next, limit: 10, count: 1)
            #expect(next.events.map(\.event.session) == ["s3"])
            #expect(next.events.allSatisfy { $0.cursor.id > read.next.id })
        }
    }

    @Test("An erased session's events leave the feed", arguments: StoreFactory.all)
    func feedAfterErase(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            _ = try await store.enqueue(alert("app/a"), now: t0)
            _ = try await store.enqueue(alert("app/b", in: "s2"), now: t0)
            _ = try await store.erase(session: session)
            _ = try await store.enqueue(alert("app/c", in: "s3"), now: t0)
            let events = try await store.settledEvents(after: nil, limit: 10, count: 2).events
            #expect(events.map(\.event.session) == ["s2", "s3"])
        }
    }
}

extension QueueStore {
    /// `events`, read again until the page holds `count` events or 20 s passed. On PostgreSQL
    /// the feed stops short of the oldest transaction running anywhere on the cluster, and the
    /// suite's other tests share the cluster: a page may come short for a moment, as a reader
    /// that long-polls would see.
    func settledEvents(after cursor: EventCursor?, limit: Int, count: Int) async throws -> EventPage {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let page = try await events(after: cursor, limit: limit)
            if page.events.count >= count || ContinuousClock.now > deadline { return page }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
