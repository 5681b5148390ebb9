import Foundation

/// The rules for issuing a session token, shared by `POST /v1/sessions/{session}/token` and
/// `alertd token`: which session ids exist, how long a token may live, and its expiry.
extension SessionTokens {
    /// A token lasts a day unless asked otherwise.
    public static let defaultLifetime: Double = 86_400
    /// The lifetimes a token may be issued for, in seconds: a minute to 90 days.
    public static let lifetimes: ClosedRange<Double> = 60...(90 * 86_400)

    /// Whether `session` is a session id: 1 to 128 letters, digits, `.`, `_`, `-` or `:` (ASCII).
    /// Read as UTF-8 bytes (every call on a session runs it): where each byte is one of these, each
    /// is a Character too.
    public static func isSessionID(_ session: String) -> Bool {
        let bytes = session.utf8
        return (1...128).contains(bytes.count) && bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"):
                true
            default: false
            }
        }
    }

    /// A token for `session` valid for `lifetime` seconds from `now` (the expiry in whole
    /// seconds, rounded down), and that expiry.
    public func issue(session: String, lifetime: Double, now: Date) -> (token: String, expiry: Date) {
        let expiry = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + lifetime).rounded(.down))
        return (issue(session: session, expiry: expiry), expiry)
    }
}
