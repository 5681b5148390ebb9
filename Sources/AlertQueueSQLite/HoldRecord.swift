import AlertQueue
import GRDB

/// A row of `holds`: the session holds modal and toast delivery until `until` (seconds since
/// 1970). A released hold has no row.
struct HoldRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "holds"

    var session: String
    var until: Double

    enum Columns {
        static let session = Column(CodingKeys.session)
        static let until = Column(CodingKeys.until)
    }
}

extension HoldRecord {
    /// When the session's hold ends, passed or not; nil without a hold.
    static func until(session: String, in db: Database) throws -> Double? {
        try Double.fetchOne(db.cachedStatement(sql: "SELECT until FROM holds WHERE session = ?"), arguments: [session])
    }
}
