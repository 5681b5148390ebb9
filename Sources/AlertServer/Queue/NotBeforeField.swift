import AlertQueue
import AlertSpec
import Foundation

/// The `notBefore` member of an enqueue body: an RFC 3339 time (`"2026-12-24T09:00:00+01:00"`)
/// or a number of seconds from now (`3600`). A time already past means now. Every enqueue
/// (of a session, and later of a user or a campaign) reads it here, so all report it alike.
enum NotBeforeField {
    /// The member's name, for the body's list of members.
    static let name = "notBefore"

    /// The schedule `object` asks for; nil when it asks for none, or with an issue at
    /// `/notBefore` for a value that is not one or lies more than `NotBefore.maxAhead` after `now`.
    static func read(_ object: [String: JSON], now: Date, issues: inout [SpecIssue]) -> NotBefore? {
        guard let value = object[name], !value.isNull else { return nil }
        let pointer = "/" + name
        let schedule: NotBefore
        if let seconds = value.number {
            guard seconds >= 0, seconds.isFinite else {
                issues.append(SpecIssue(pointer: pointer, code: "out-of-range", message: "notBefore in seconds is 0 or more."))
                return nil
            }
            schedule = .after(seconds: seconds)
        } else if let text = value.string {
            guard let date = time(text) else {
                issues.append(SpecIssue(
                    pointer: pointer, code: "invalid-value",
                    message: "notBefore is an RFC 3339 time with its offset, such as 2026-12-24T09:00:00Z."))
                return nil
            }
            schedule = .at(date)
        } else {
            issues.append(SpecIssue(
                pointer: pointer, code: "invalid-type", message: "notBefore is an RFC 3339 time (a string) or seconds from now (a number)."))
            return nil
        }
        guard !schedule.isTooFar(from: now) else {
            issues.append(SpecIssue(
                pointer: pointer, code: "out-of-range", message: "notBefore is at most \(Int(NotBefore.maxAhead / 86_400)) days ahead."))
            return nil
        }
        return schedule
    }

    /// `text` as an RFC 3339 date-time (`T` between date and time, an offset or `Z`, fractional
    /// seconds optional); nil when it is not one.
    static func time(_ text: String) -> Date? {
        guard text.count <= 64 else { return nil }
        let whole = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return (try? whole.parse(text)) ?? (try? fractional.parse(text))
    }
}
