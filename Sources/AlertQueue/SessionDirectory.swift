import Foundation

/// A session the store knows beyond its queue: the user it belongs to, the topics it joined,
/// and when it was last seen (its token issued, or a call made with its token).
public struct KnownSession: Sendable, Equatable {
    public let session: String
    /// The user the session belongs to; nil when it belongs to none.
    public let user: String?
    /// The topics it joined, sorted.
    public let topics: [String]
    /// When it was last seen, as far as the store knows (an instance may hold later times
    /// it has not flushed yet; see `markSeen`).
    public let lastSeen: Date

    public init(session: String, user: String?, topics: [String], lastSeen: Date) {
        self.session = session
        self.user = user
        self.topics = topics.sorted()
        self.lastSeen = lastSeen
    }
}

/// The registry of sessions: which user each belongs to, which topics it joined, when it was
/// last seen. Users are not an entity of their own: a user is the sessions that name it.
///
/// A session gets a row when it is registered (its token issued, its user or topics set) or
/// first seen; an enqueue alone makes none. Erasing a session (`QueueStore.erase`) deletes its
/// row and topics too.
///
/// ```swift
/// _ = try await store.register(session: "phone-1", user: "ana", topics: ["beta"], now: clock.now())
/// try await store.markSeen(["phone-1": clock.now()])            // batched by the caller
/// let phones = try await store.sessions(ofUser: "ana")         // most recently seen first
/// ```
public protocol SessionDirectory: Sendable {
    /// Registers `session` (created when new) and marks it seen at `now`: its user set to
    /// `user` and its topics replaced by `topics`, each left as it is when nil.
    func register(session: String, user: String?, topics: [String]?, now: Date) async throws -> KnownSession

    /// Sets the session's user, or detaches it (nil); creates the session when new (seen at `now`).
    func setUser(session: String, user: String?, now: Date) async throws -> KnownSession

    /// Replaces the session's topics; creates the session when new (seen at `now`).
    func setTopics(session: String, topics: [String], now: Date) async throws -> KnownSession

    /// The session, or nil when the store has no row for it.
    func knownSession(_ session: String) async throws -> KnownSession?

    /// The sessions whose user is `user`, most recently seen first (ties by session id); empty
    /// for a user no session names.
    func sessions(ofUser user: String) async throws -> [KnownSession]

    /// Records when sessions were seen, in one transaction: a session without a row gets one,
    /// a row's time changes only when the new one is later.
    func markSeen(_ times: [String: Date]) async throws

    /// Up to `limit` sessions last seen before `cutoff`, least recently seen first.
    func idleSessions(seenBefore cutoff: Date, limit: Int) async throws -> [String]

    /// Erases `session` as `QueueStore.erase` does (its items, events, hold, counts, row and
    /// topics), in one transaction, but only if it is still last seen before `cutoff` when that
    /// transaction runs; nil (and nothing erased) when it was seen since, or has no row.
    func forget(session: String, seenBefore cutoff: Date) async throws -> Erasure?
}

/// What a registry write does to a session's user: leaves it, sets it, or detaches it.
public enum SessionUserChange: Sendable, Equatable {
    case keep
    case set(String)
    case detach

    /// `register`'s user: nil leaves it as it is.
    public init(registering user: String?) {
        self = user.map { .set($0) } ?? .keep
    }

    /// `setUser`'s user: nil detaches it.
    public init(setting user: String?) {
        self = user.map { .set($0) } ?? .detach
    }

    /// The user the row gets: the new one, or none (for `keep`, only a new row takes it).
    public var user: String? {
        if case .set(let user) = self { user } else { nil }
    }

    /// Whether an existing row's user changes.
    public var changes: Bool { self != .keep }
}

extension KnownSession {
    /// Sorted, each once: how a directory stores a list of topics.
    public static func normalizedTopics(_ topics: [String]) -> [String] {
        Array(Set(topics)).sorted()
    }
}
