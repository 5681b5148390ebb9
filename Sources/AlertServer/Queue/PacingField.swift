import AlertSpec

/// The `pacing` member of an enqueue body: a rule (`Pacing`) that tightens the alert's own, never
/// loosens it. Every enqueue (of a session, a user, a campaign) reads it here, so all report it
/// alike.
enum PacingField {
    /// The member's name, for the body's list of members.
    static let name = "pacing"

    /// The rule `object` gives; nil when it gives none, or with issues under `/pacing` for a
    /// value that is not one.
    static func read(_ object: [String: JSON], issues: inout [SpecIssue]) -> Pacing? {
        guard let value = object[name], !value.isNull else { return nil }
        return Pacing(json: value, at: "/" + name, issues: &issues)
    }

    /// The rule the item is queued with: the alert's (`declared`; none for an ad-hoc spec)
    /// tightened by the enqueue's (`given`). An issue when it defers an item that must wait out
    /// a gap longer than its `ttl`: at the enqueue's own gap when it gave the longest one, else
    /// at the TTL.
    static func effective(declared: Pacing, given: Pacing?, ttl: Double?, issues: inout [SpecIssue]) -> Pacing {
        let pacing = given.map(declared.tightened(by:)) ?? declared
        if let problem = pacing.problem(ttl: ttl) {
            let givesGap = given?.minGap.map { $0.duration == pacing.minGap?.duration } ?? false
            issues.append(SpecIssue(pointer: givesGap ? "/pacing/minGap/duration" : "/ttl", code: "gap-past-ttl", message: problem))
        }
        return pacing
    }
}
