extension Pacing {
    /// Reads a rule as people write it (an enqueue's `pacing`, a catalog file's):
    ///
    /// ```json
    /// {"limits": [{"count": 1, "period": "30d", "scope": "user"}], "once": {"scope": "session"},
    ///  "minGap": {"duration": "60s"}, "whenCapped": "drop"}
    /// ```
    ///
    /// Every member is optional; a `scope` defaults to `session`. Periods are `Period` text or
    /// whole seconds. Nil, with every problem in `issues` (pointers under `pointer`), for a value
    /// that breaks a rule: an unknown member, a wrong type, a count or period out of range, an
    /// unknown scope or `whenCapped`.
    public init?(json: JSON, at pointer: String, issues: inout [SpecIssue]) {
        var reader = PacingReader(issues: issues)
        let read = reader.pacing(json, at: pointer)
        issues = reader.issues
        guard let read else { return nil }
        self = read
    }
}

/// Reads one pacing rule member by member, noting every problem. Pointers are made only for a
/// problem (`@autoclosure`): an enqueue may carry a rule, and a pointer costs more than its check.
private struct PacingReader {
    var issues: [SpecIssue]
    private var failed = false

    init(issues: [SpecIssue]) { self.issues = issues }

    private static let members: Set<String> = ["limits", "once", "minGap", "whenCapped"]
    private static let limitMembers: Set<String> = ["count", "period", "scope"]
    private static let onceMembers: Set<String> = ["scope"]
    private static let gapMembers: Set<String> = ["duration", "scope"]

    mutating func pacing(_ json: JSON, at pointer: @autoclosure () -> String) -> Pacing? {
        let shape = "an object of limits, once, minGap and whenCapped"
        guard let members = object(json, at: pointer(), among: Self.members, shape) else { return nil }
        var pacing = Pacing()
        if let limits = members["limits"] {
            if let list = limits.array {
                pacing.limits = list.enumerated().compactMap { limit($1, at: "\(pointer())/limits/\($0)") }
            } else {
                problem(pointer() + "/limits", "invalid-type", "limits is a list of {count, period, scope}.")
            }
        }
        if let once = members["once"], let read = object(once, at: pointer() + "/once", among: Self.onceMembers, "an object of scope") {
            pacing.once = Pacing.Once(scope: scope(read["scope"], at: pointer() + "/once/scope"))
        }
        let gapShape = "an object of duration and scope"
        if let gap = members["minGap"], let read = object(gap, at: pointer() + "/minGap", among: Self.gapMembers, gapShape) {
            let duration = period(read["duration"], at: pointer() + "/minGap/duration")
            let scope = scope(read["scope"], at: pointer() + "/minGap/scope")
            pacing.minGap = duration.map { Pacing.Gap(duration: $0, scope: scope) }
        }
        if let value = members["whenCapped"] {
            if let text = value.string, let whenCapped = Pacing.WhenCapped(rawValue: text) {
                pacing.whenCapped = whenCapped
            } else {
                problem(pointer() + "/whenCapped", "invalid-value", "whenCapped is \"defer\" or \"drop\".")
            }
        }
        return failed ? nil : pacing
    }

    private mutating func limit(_ json: JSON, at pointer: @autoclosure () -> String) -> Pacing.Limit? {
        let shape = "an object of count, period and scope"
        guard let members = object(json, at: pointer(), among: Self.limitMembers, shape) else { return nil }
        var count: Int?
        switch members["count"] {
        case nil: problem(pointer() + "/count", "missing-field", "A limit needs its count.")
        case let value?:
            if let number = value.integer, (1...Pacing.maxCount).contains(number) {
                count = number
            } else {
                problem(pointer() + "/count", "out-of-range", "count is a whole number from 1 to \(Pacing.maxCount).")
            }
        }
        let period = period(members["period"], at: pointer() + "/period")
        let scope = scope(members["scope"], at: pointer() + "/scope")
        guard let count, let period else { return nil }
        return Pacing.Limit(count: count, period: period, scope: scope)
    }

    /// The object's members (null ones left out, as a member left out), each checked against
    /// `allowed`; nil with an issue when `json` is no object.
    private mutating func object(
        _ json: JSON, at pointer: @autoclosure () -> String, among allowed: Set<String>, _ shape: String
    ) -> [String: JSON]? {
        guard let members = json.object else {
            problem(pointer(), "invalid-type", "This must be \(shape).")
            return nil
        }
        if !members.keys.allSatisfy(allowed.contains) {
            for name in members.keys.sorted() where !allowed.contains(name) {
                let known = allowed.sorted().joined(separator: ", ")
                problem(pointer() + "/" + JSONPointer.escape(name), "unknown-field", "\"\(name)\" is not a field here; use \(known).")
            }
        }
        return members.values.contains(where: \.isNull) ? members.filter { !$0.value.isNull } : members
    }

    private mutating func period(_ json: JSON?, at pointer: @autoclosure () -> String) -> Period? {
        guard let json else {
            problem(pointer(), "missing-field", "This needs \(Period.expected).")
            return nil
        }
        let period = json.string.flatMap(Period.init) ?? json.integer.flatMap(Period.init(seconds:))
        guard let period, period <= Pacing.maxPeriod else {
            problem(
                pointer(), "invalid-value", "This is \(Period.expected) (or whole seconds), more than zero and at most \(Pacing.maxPeriod).")
            return nil
        }
        return period
    }

    private mutating func scope(_ json: JSON?, at pointer: @autoclosure () -> String) -> Pacing.Scope {
        guard let json else { return .session }
        guard let text = json.string, let scope = Pacing.Scope(rawValue: text) else {
            problem(pointer(), "invalid-value", "scope is \"session\" or \"user\".")
            return .session
        }
        return scope
    }

    private mutating func problem(_ pointer: String, _ code: String, _ message: String) {
        issues.append(SpecIssue(pointer: pointer, code: code, message: message))
        failed = true
    }
}
