import AlertQueue
import Foundation
import GRDB

/// The session registry (`SessionDirectory`) in `sessions_known` and `session_topics`
/// (`KnownSessionRecord`): registrations are writes of their own; seen times are one
/// background write per flush; reads are single statements beside the writer.
extension SQLiteQueueStore {
    public func register(session: String, user: String?, topics: [String]?, now: Date) async throws -> KnownSession {
        try await write { db in
            try KnownSessionRecord.write(
                session: session, user: SessionUserChange(registering: user), topics: topics, seen: true, now: now, in: db)
        }
    }

    public func setUser(session: String, user: String?, now: Date) async throws -> KnownSession {
        try await write { db in
            try KnownSessionRecord.write(
                session: session, user: SessionUserChange(setting: user), topics: nil, seen: false, now: now, in: db)
        }
    }

    public func setTopics(session: String, topics: [String], now: Date) async throws -> KnownSession {
        try await write { db in
            try KnownSessionRecord.write(session: session, user: .keep, topics: topics, seen: false, now: now, in: db)
        }
    }

    public func knownSession(_ session: String) async throws -> KnownSession? {
        try read { db in try KnownSessionRecord.fetch(session: session, in: db) }
    }

    public func sessions(ofUser user: String) async throws -> [KnownSession] {
        try read { db in try KnownSessionRecord.fetch(user: user, in: db) }
    }

    /// A background write (see `WriteBatcher.writeInBackground`): a transaction of its own,
    /// committed without a flush of its own; a crash of the machine may take back the last
    /// flush's times, which only makes sessions look seen a little earlier.
    public func markSeen(_ times: [String: Date]) async throws {
        guard !times.isEmpty else { return }
        try await write(background: true) { db in try KnownSessionRecord.markSeen(times, in: db) }
    }

    public func idleSessions(seenBefore cutoff: Date, limit: Int) async throws -> [String] {
        try read { db in
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT session FROM sessions_known WHERE last_seen < ? ORDER BY last_seen LIMIT ?"),
                arguments: [cutoff.timeIntervalSince1970, max(1, limit)])
        }
    }

    public func forget(session: String, seenBefore cutoff: Date) async throws -> Erasure? {
        let erased = try await write { db -> (Erasure, [String])? in
            guard let seen = try KnownSessionRecord.lastSeen(session: session, in: db), seen < cutoff.timeIntervalSince1970
            else { return nil }
            return try self.eraseRows(of: session, in: db)
        }
        guard let (erasure, tickets) = erased else { return nil }
        forgetInMemory(session: session, tickets: tickets)
        return erasure
    }
}
