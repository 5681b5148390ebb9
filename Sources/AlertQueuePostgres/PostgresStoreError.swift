import Foundation

/// Why a PostgreSQL queue store could not be set up, or what it found that it cannot answer for
/// (a row it cannot read, its enqueue function disagreeing with the policy). A struct around a
/// private enum, so cases can be added. (Once set up, the store reports an unreachable database
/// as `QueueError.unavailable`.)
public struct PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: Equatable {
        case malformedURL(url: String, reason: String)
        case invalidOptions(String)
        case newerSchema([String])
        case unreadableRow(String)
        case policyDisagreement(tickets: [String])
    }

    private let reason: Reason

    /// The connection URL cannot be used; `reason` says why. The URL is kept without its password.
    public static func malformedURL(url: String, reason: String) -> Self {
        .init(reason: .malformedURL(url: Self.withoutPassword(url), reason: reason))
    }

    /// An option is out of range.
    public static func invalidOptions(_ why: String) -> Self { .init(reason: .invalidOptions(why)) }

    /// The database holds migrations this version does not know: a newer alertd wrote it.
    public static func newerSchema(unknownMigrations: [String]) -> Self { .init(reason: .newerSchema(unknownMigrations)) }

    /// A row this version cannot read (written by a newer one, or edited by hand).
    public static func unreadableRow(_ why: String) -> Self { .init(reason: .unreadableRow(why)) }

    /// `alertd.enqueue_counted` inserted enqueues (`tickets`) that `QueuePolicy`, run over what
    /// it counted, would not simply have inserted: the function's hold-back rules and the policy's
    /// enqueue rules differ, a bug. Their rows stay; the enqueues are answered with this error
    /// instead of the policy's answers (a retry finds them by their dedupe keys).
    static func policyDisagreement(tickets: [String]) -> Self { .init(reason: .policyDisagreement(tickets: tickets)) }

    /// Whether this is `newerSchema`: a database this version must not write.
    public var isNewerSchema: Bool {
        if case .newerSchema = reason { true } else { false }
    }

    public var description: String {
        switch reason {
        case .malformedURL(let url, let why):
            "The PostgreSQL URL \(url) cannot be used: \(why). Expected postgres://user:password@host:port/database."
        case .invalidOptions(let why):
            "The PostgreSQL store options are invalid: \(why)."
        case .newerSchema(let names):
            "The queue database was migrated by a newer alertd (unknown migrations: \(names.joined(separator: ", ")))."
        case .unreadableRow(let why):
            "The queue database holds a row alertd cannot read: \(why)."
        case .policyDisagreement(let tickets):
            "alertd.enqueue_counted inserted items the queue policy would not have inserted as they are "
                + "(tickets \(tickets.joined(separator: ", "))): its rules and QueuePolicy.enqueue differ."
        }
    }

    /// `url` with the password between `:` and `@` replaced, so messages can be logged.
    static func withoutPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@"),
            let colon = url[schemeEnd.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return url[..<url.index(after: colon)] + "***" + url[at...]
    }
}
