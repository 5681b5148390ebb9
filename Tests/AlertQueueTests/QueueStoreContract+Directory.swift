import AlertQueue
import Foundation
import Testing

/// The session registry (`SessionDirectory`): who a session belongs to, its topics, when it was
/// last seen, which sessions are idle, and that erasing a session forgets it.
extension QueueStoreContract {
    @Test("Registering creates the session with its user and topics, seen now", arguments: StoreFactory.all)
    func registerCreates(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // When
            let known = try await store.register(session: "phone", user: "ana", topics: ["beta", "alpha", "beta"], now: at(5))
            // Then
            let expected = KnownSession(session: "phone", user: "ana", topics: ["alpha", "beta"], lastSeen: at(5))
            #expect(known == expected)
            #expect(try await store.knownSession("phone") == expected)
            #expect(try await store.knownSession("other") == nil)
        }
    }

    @Test("Registering again leaves what it is not given, replaces topics given, and moves last-seen later only", arguments: StoreFactory.all)
    func registerAgain(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.register(session: "phone", user: "ana", topics: ["beta", "news"], now: at(10))
            // When: nothing given, at an earlier time; then new topics, later
            let kept = try await store.register(session: "phone", user: nil, topics: nil, now: at(3))
            let replaced = try await store.register(session: "phone", user: nil, topics: ["promo"], now: at(20))
            // Then
            #expect(kept == KnownSession(session: "phone", user: "ana", topics: ["beta", "news"], lastSeen: at(10)))
            #expect(replaced == KnownSession(session: "phone", user: "ana", topics: ["promo"], lastSeen: at(20)))
        }
    }

    @Test("Setting a user, detaching it and replacing topics change only that, and do not mark the session seen", arguments: StoreFactory.all)
    func setUserAndTopics(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.register(session: "phone", user: "ana", topics: ["beta"], now: at(10))
            // When
            let moved = try await store.setUser(session: "phone", user: "bo", now: at(30))
            let retopiced = try await store.setTopics(session: "phone", topics: ["a", "b"], now: at(40))
            let detached = try await store.setUser(session: "phone", user: nil, now: at(50))
            let emptied = try await store.setTopics(session: "phone", topics: [], now: at(60))
            // Then
            #expect(moved == KnownSession(session: "phone", user: "bo", topics: ["beta"], lastSeen: at(10)))
            #expect(retopiced == KnownSession(session: "phone", user: "bo", topics: ["a", "b"], lastSeen: at(10)))
            #expect(detached == KnownSession(session: "phone", user: nil, topics: ["a", "b"], lastSeen: at(10)))
            #expect(emptied == KnownSession(session: "phone", user: nil, topics: [], lastSeen: at(10)))
            #expect(try await store.sessions(ofUser: "bo").isEmpty)
            // A session first named by setUser is created, seen then
            #expect(try await store.setUser(session: "tablet", user: "bo", now: at(70)).lastSeen == at(70))
        }
    }

    @Test("A user's sessions are listed most recently seen first; an unknown user has none", arguments: StoreFactory.all)
    func sessionsOfUser(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given three sessions of ana seen at different times, one of bo
            _ = try await store.register(session: "old", user: "ana", topics: ["x"], now: at(1))
            _ = try await store.register(session: "new", user: "ana", topics: nil, now: at(3))
            _ = try await store.register(session: "mid", user: "ana", topics: nil, now: at(2))
            _ = try await store.register(session: "bos", user: "bo", topics: nil, now: at(9))
            // When "old" is seen last
            try await store.markSeen(["old": at(8)])
            // Then
            let listed = try await store.sessions(ofUser: "ana")
            #expect(listed.map(\.session) == ["old", "new", "mid"])
            #expect(listed.first?.topics == ["x"] && listed.first?.lastSeen == at(8))
            #expect(try await store.sessions(ofUser: "nobody").isEmpty)
        }
    }

    @Test("markSeen keeps the later time, and creates rows for sessions it did not know", arguments: StoreFactory.all)
    func markSeenKeepsLater(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.register(session: "a", user: "ana", topics: nil, now: at(10))
            // When
            try await store.markSeen(["a": at(5), "b": at(7)])
            try await store.markSeen(["a": at(12)])
            try await store.markSeen([:])
            // Then
            #expect(try await store.knownSession("a") == KnownSession(session: "a", user: "ana", topics: [], lastSeen: at(12)))
            #expect(try await store.knownSession("b") == KnownSession(session: "b", user: nil, topics: [], lastSeen: at(7)))
        }
    }

    @Test("Idle sessions are those last seen before the cutoff, least recently seen first, at most the limit", arguments: StoreFactory.all)
    func idleSessions(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            try await store.markSeen(["c": at(3), "a": at(1), "b": at(2), "fresh": at(100)])
            // Then
            #expect(try await store.idleSessions(seenBefore: at(50), limit: 10) == ["a", "b", "c"])
            #expect(try await store.idleSessions(seenBefore: at(50), limit: 2) == ["a", "b"])
            #expect(try await store.idleSessions(seenBefore: at(2), limit: 10) == ["a"])
        }
    }

    @Test("Forgetting an idle session erases it whole; one seen since, or unknown, is left", arguments: StoreFactory.all)
    func forgetIdle(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given an idle session with an item, a hold and topics, and one seen again
            _ = try await store.register(session: session, user: "ana", topics: ["beta"], now: t0)
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            try await store.hold(session: session, until: at(100))
            _ = try await store.register(session: "back", user: "ana", topics: nil, now: t0)
            try await store.markSeen(["back": at(60)])
            // When
            let forgotten = try await store.forget(session: session, seenBefore: at(50))
            let back = try await store.forget(session: "back", seenBefore: at(50))
            let unknown = try await store.forget(session: "never", seenBefore: at(50))
            // Then
            #expect(forgotten == Erasure(items: 1, events: 1))
            #expect(back == nil && unknown == nil)
            #expect(try await store.knownSession(session) == nil)
            #expect(try await store.item(session: session, ticket: ticket) == nil)
            #expect(try await store.holdUntil(session: session, now: at(20)) == nil)
            #expect(try await store.sessions(ofUser: "ana").map(\.session) == ["back"])
        }
    }

    @Test("Erasing a session deletes its registry row and topics", arguments: StoreFactory.all)
    func eraseForgetsRegistration(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.register(session: session, user: "ana", topics: ["beta"], now: t0)
            _ = try await store.register(session: "kept", user: "ana", topics: ["beta"], now: t0)
            // When
            _ = try await store.erase(session: session)
            // Then
            #expect(try await store.knownSession(session) == nil)
            #expect(try await store.sessions(ofUser: "ana").map(\.session) == ["kept"])
            // Registered again, it starts without the topics it had
            #expect(try await store.register(session: session, user: nil, topics: nil, now: at(1)).topics == [])
        }
    }
}
