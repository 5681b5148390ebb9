import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Pacing profiles (`ProfileStore`): a session's and a user's kept and replaced, the effective
/// one the session's over its user's, and erasing a session deleting its own but not its user's.
extension QueueStoreContract {
    private static let berlin = SessionProfile(
        timeZone: "Europe/Berlin", quietHours: QuietHours("22:00-08:00"), minModalGap: .seconds(30), maxModalsPerDay: 5)

    @Test("A profile is kept per owner, replaced whole, and deleted by nil or an empty profile", arguments: StoreFactory.all)
    func profilesKept(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given nothing
            #expect(try await store.profile(of: .session("phone")) == nil)
            // When a session's and a user's of the same name are set
            try await store.setProfile(Self.berlin, for: .session("ana"))
            try await store.setProfile(SessionProfile(maxModalsPerDay: 2), for: .user("ana"))
            // Then each reads back as set, apart
            #expect(try await store.profile(of: .session("ana")) == Self.berlin)
            #expect(try await store.profile(of: .user("ana")) == SessionProfile(maxModalsPerDay: 2))
            // When replaced: members left out are gone
            try await store.setProfile(SessionProfile(minModalGap: .minutes(5)), for: .session("ana"))
            #expect(try await store.profile(of: .session("ana")) == SessionProfile(minModalGap: .minutes(5)))
            // When deleted by nil, and by an empty profile
            try await store.setProfile(nil, for: .session("ana"))
            try await store.setProfile(SessionProfile(), for: .user("ana"))
            #expect(try await store.profile(of: .session("ana")) == nil)
            #expect(try await store.profile(of: .user("ana")) == nil)
        }
    }

    @Test("The effective profile is the session's over its user's, member by member, following the registry", arguments: StoreFactory.all)
    func effectiveProfile(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given a user's profile and a session of that user with a profile of its own
            try await store.setProfile(Self.berlin, for: .user("ana"))
            _ = try await store.register(session: "phone", user: "ana", topics: nil, now: at(1))
            try await store.setProfile(SessionProfile(timeZone: "Asia/Tokyo", maxModalsPerDay: 1), for: .session("phone"))
            // Then the session's members win, the user's fill the rest
            let expected = SessionProfile(
                timeZone: "Asia/Tokyo", quietHours: QuietHours("22:00-08:00"), minModalGap: .seconds(30), maxModalsPerDay: 1)
            #expect(try await store.effectiveProfile(session: "phone") == expected)
            // A session with no user has only its own; an unknown one has none
            _ = try await store.setUser(session: "phone", user: nil, now: at(2))
            #expect(try await store.effectiveProfile(session: "phone") == SessionProfile(timeZone: "Asia/Tokyo", maxModalsPerDay: 1))
            #expect(try await store.effectiveProfile(session: "nobody") == .none)
            // A session without a profile of its own, of a user with one, has the user's
            _ = try await store.register(session: "tablet", user: "ana", topics: nil, now: at(3))
            #expect(try await store.effectiveProfile(session: "tablet") == Self.berlin)
        }
    }

    @Test("Erasing a session deletes its profile and leaves its user's", arguments: StoreFactory.all)
    func eraseDeletesProfile(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.register(session: "phone", user: "ana", topics: nil, now: at(1))
            try await store.setProfile(Self.berlin, for: .session("phone"))
            try await store.setProfile(SessionProfile(maxModalsPerDay: 3), for: .user("ana"))
            try await store.setProfile(SessionProfile(maxModalsPerDay: 4), for: .session("other"))
            // When
            _ = try await store.erase(session: "phone")
            // Then
            #expect(try await store.profile(of: .session("phone")) == nil)
            #expect(try await store.profile(of: .user("ana")) == SessionProfile(maxModalsPerDay: 3))
            #expect(try await store.profile(of: .session("other")) == SessionProfile(maxModalsPerDay: 4))
        }
    }
}
