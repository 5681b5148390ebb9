import AlertQueue
import Foundation
import GRDB

extension SQLiteQueueStore {
    /// The hold's end or the first scheduled item's time after `now`, in one read
    /// (`WindowSQL.nextTimedChange`): when a waiting poll looks again.
    public func nextTimedChange(session: String, now: Date) async throws -> Date? {
        let at = try read { db in
            try Double.fetchOne(db.cachedStatement(sql: WindowSQL.nextTimedChange), arguments: [session, now.timeIntervalSince1970])
        }
        return at.map(Date.init(timeIntervalSince1970:))
    }
}
