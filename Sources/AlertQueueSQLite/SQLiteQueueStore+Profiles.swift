import AlertQueue
import GRDB

/// Pacing profiles (`ProfileStore`) in `profiles` (`ProfileRecord`).
extension SQLiteQueueStore {
    public func setProfile(_ profile: SessionProfile?, for owner: ProfileOwner) async throws {
        try await write { db in try ProfileRecord.write(profile, for: owner, in: db) }
        if let profile, !profile.isEmpty { profilesKept.set() }
    }

    public func profile(of owner: ProfileOwner) async throws -> SessionProfile? {
        try read { db in try ProfileRecord.fetch(owner, in: db) }
    }

    /// Two statements that must agree: read in one snapshot.
    public func effectiveProfile(session: String) async throws -> SessionProfile {
        do {
            return try await writer.read { db in try ProfileRecord.effective(session: session, in: db) }
        } catch let error as DatabaseError {
            throw QueueError.sqlite(error) ?? error
        }
    }
}
