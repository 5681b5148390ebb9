import AlertSpec
import Foundation

extension SessionProfile {
    /// The members a profile object may have.
    public static let members: Set<String> = ["timeZone", "quietHours", "minModalGap", "maxModalsPerDay"]

    /// Reads a profile as people write it (a token call's `profile`, a `PUT …/profile` body):
    ///
    /// ```json
    /// {"timeZone": "Europe/Berlin", "quietHours": "22:00-08:00", "minModalGap": "30s", "maxModalsPerDay": 5}
    /// ```
    ///
    /// Every member is optional; a null one is not in the profile. Nil, with every problem in
    /// `issues` (pointers under `pointer`), for an unknown member, a wrong type, a time zone this
    /// system does not know, quiet hours that are not `HH:MM-HH:MM`, a bad period, or a count
    /// out of range.
    public init?(json: JSON, at pointer: String, issues: inout [SpecIssue]) {
        let before = issues.count
        guard let object = json.object else {
            issues.append(
                SpecIssue(
                    pointer: pointer, code: "invalid-type",
                    message: "A profile is an object of timeZone, quietHours, minModalGap and maxModalsPerDay."))
            return nil
        }
        for name in object.keys.sorted() where !Self.members.contains(name) {
            let known = Self.members.sorted().joined(separator: ", ")
            issues.append(
                SpecIssue(
                    pointer: pointer + "/" + JSONPointer.escape(name), code: "unknown-field",
                    message: "\"\(name)\" is not a field here; use \(known)."))
        }
        let members = object.filter { !$0.value.isNull }
        var profile = SessionProfile()
        func problem(_ member: String, _ code: String, _ message: String) {
            issues.append(SpecIssue(pointer: pointer + "/" + member, code: code, message: message))
        }
        if let value = members["timeZone"] {
            if let text = value.string, TimeZone(identifier: text) != nil {
                profile.timeZone = text
            } else {
                problem("timeZone", "unknown-time-zone", "timeZone is an IANA time zone this server knows, such as Europe/Berlin.")
            }
        }
        if let value = members["quietHours"] {
            if let hours = value.string.flatMap(QuietHours.init) {
                profile.quietHours = hours
            } else {
                problem("quietHours", "invalid-value", "quietHours is \(QuietHours.expected).")
            }
        }
        if let value = members["minModalGap"] {
            let period = value.string.flatMap(Period.init) ?? value.integer.flatMap(Period.init(seconds:))
            if let period, period <= Pacing.maxPeriod {
                profile.minModalGap = period
            } else {
                problem(
                    "minModalGap", "invalid-value",
                    "minModalGap is \(Period.expected) (or whole seconds), more than zero and at most \(Pacing.maxPeriod).")
            }
        }
        if let value = members["maxModalsPerDay"] {
            if let count = value.integer, (1...Self.maxModalsLimit).contains(count) {
                profile.maxModalsPerDay = count
            } else {
                problem("maxModalsPerDay", "out-of-range", "maxModalsPerDay is a whole number from 1 to \(Self.maxModalsLimit).")
            }
        }
        guard issues.count == before else { return nil }
        self = profile
    }
}
