import AlertQueue
import Foundation
import GRDB
import Synchronization

/// The pacing profiles SQLite keeps (`ProfileStore`): `profiles`, a row per session (`s:<session>`)
/// or user (`u:<user>`) that has one, its `SessionProfile` as JSON. The step reads a session's
/// effective profile in its own transaction (`effective(session:in:)`).
enum ProfileRecord {
    static let schema = """
        CREATE TABLE profiles (
            owner TEXT PRIMARY KEY NOT NULL,
            profile TEXT NOT NULL
        ) WITHOUT ROWID;
        """

    /// Replaces the owner's row, or deletes it for nil or an empty profile.
    static func write(_ profile: SessionProfile?, for owner: ProfileOwner, in db: Database) throws {
        guard let profile, !profile.isEmpty else {
            try delete(owner, in: db)
            return
        }
        try db.execute(
            sql: "INSERT INTO profiles (owner, profile) VALUES (?, ?) ON CONFLICT (owner) DO UPDATE SET profile = excluded.profile",
            arguments: [owner.key, profile.storedText()])
    }

    static func delete(_ owner: ProfileOwner, in db: Database) throws {
        try db.execute(sql: "DELETE FROM profiles WHERE owner = ?", arguments: [owner.key])
    }

    /// The owner's own profile; nil when it has none.
    static func fetch(_ owner: ProfileOwner, in db: Database) throws -> SessionProfile? {
        let text = try String.fetchOne(db.cachedStatement(sql: "SELECT profile FROM profiles WHERE owner = ?"), arguments: [owner.key])
        return try text.map(SessionProfile.init(storedText:))
    }

    /// Whether any profile is stored.
    static func any(in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM profiles)") ?? false
    }

    /// The session's profile over its user's (the user `sessions_known` names), `.none` when
    /// neither has one: in the caller's transaction, so a step paces by what it reads with its items.
    static func effective(session: String, in db: Database) throws -> SessionProfile {
        let own = try fetch(.session(session), in: db) ?? .none
        let user = try String.fetchOne(db.cachedStatement(sql: "SELECT user_id FROM sessions_known WHERE session = ?"), arguments: [session])
        guard let user, let users = try fetch(.user(user), in: db) else { return own }
        return own.over(users)
    }
}

/// Whether a store's file holds a pacing profile, kept in memory so that a step on a store
/// where none was ever set reads nothing for it: set when the store opens on a file that holds
/// one, and when one is stored. (Another process storing the first profile on the same file is
/// seen when this one opens it again.)
final class ProfilesKept: Sendable {
    private let kept = Atomic<Bool>(false)

    init() {}

    var value: Bool { kept.load(ordering: .relaxed) }
    func set() { kept.store(true, ordering: .relaxed) }
}

extension SQLiteQueueStore {
    /// The session's profile over its user's, in the step's transaction (`.none` until a
    /// profile is stored at all).
    func profile(session: String, in db: Database) throws -> SessionProfile {
        profilesKept.value ? try ProfileRecord.effective(session: session, in: db) : .none
    }
}
