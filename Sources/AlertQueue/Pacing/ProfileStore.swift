import Foundation

/// Whose pacing profile a row is: a session's, or a user's (applying to every session of the
/// user). Stores key it as `s:<session>` or `u:<user>`, the keys `pacing_shown` uses too.
public enum ProfileOwner: Sendable, Hashable, CustomStringConvertible {
    case session(String)
    case user(String)

    /// The store's key: `s:<session>` or `u:<user>`.
    public var key: String {
        switch self {
        case .session(let session): "s:\(session)"
        case .user(let user): "u:\(user)"
        }
    }

    public var description: String { key }
}

/// Where sessions' and users' pacing profiles (`SessionProfile`) are kept, beside the queues so
/// that a step reads them in its own transaction. Erasing a session deletes its profile; a
/// user's stays, as users are only the sessions that name them.
///
/// ```swift
/// try await store.setProfile(SessionProfile(timeZone: "Europe/Berlin"), for: .user("ana"))
/// try await store.setProfile(SessionProfile(maxModalsPerDay: 3), for: .session("phone"))
/// let profile = try await store.effectiveProfile(session: "phone")  // Berlin, 3 a day
/// let paced = profile.over(settings.profile)                          // the server's last
/// ```
public protocol ProfileStore: Sendable {
    /// Replaces the owner's profile; nil, or a profile with no member set, deletes it.
    func setProfile(_ profile: SessionProfile?, for owner: ProfileOwner) async throws

    /// The owner's own profile; nil when it has none.
    func profile(of owner: ProfileOwner) async throws -> SessionProfile?

    /// The session's profile over its user's (the user the registry names), each member from the
    /// most specific that has it; `.none` when neither has one. The server's defaults are the
    /// caller's to put under it.
    func effectiveProfile(session: String) async throws -> SessionProfile
}

extension SessionProfile {
    /// Whether no member is set, time zone included: a profile not worth a row.
    public var isEmpty: Bool { self == .none }

    /// The profile as a store's column keeps it (JSON).
    public func storedText() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    /// The profile of a store's column text.
    public init(storedText text: String) throws {
        self = try JSONDecoder().decode(SessionProfile.self, from: Data(text.utf8))
    }
}
