import AlertCatalogs
import AlertQueue
import AlertSpec
import Crypto
import Foundation

/// `POST /v1/sessions/{session}/queue`: `{"alert": "catalog/type", "params": {…}}` or
/// `{"spec": {…}}`, with optional `priority` (0…1000, default the alert's), `ttl` (seconds),
/// `dedupeKey`, `onDuplicate` (`refresh`, the default, or `keep`), `notBefore` (a time or
/// seconds from now, see `NotBeforeField`) and `pacing` (a rule that tightens the alert's, see
/// `PacingField`). Every problem is reported at once, each with a pointer into the body.
struct EnqueueRequest {
    static let members: Set<String> = [
        "alert", "params", "spec", "priority", "ttl", "dedupeKey", "onDuplicate", NotBeforeField.name, PacingField.name,
    ]
    /// The longest wait an item may be given: 30 days.
    static let maxTTL = 30.0 * 86_400

    /// The body's fields, read from the parsed object: every field of the wrong type is reported
    /// (a decoder would stop at the first), and one parse serves both this and the spec check.
    /// Parameters are read in name order, so their issues come in that order.
    private struct Body {
        var alert: String?
        var params: [String: ParameterValue]?
        var priority: Int?
        var ttl: Double?
        var dedupeKey: String?
        var onDuplicate: String?

        init(_ object: [String: JSON], issues: inout [SpecIssue]) {
            func field<T>(_ name: String, _ expected: String, _ read: (JSON) -> T?) -> T? {
                JSONBody.member(name, of: object, expected, read, issues: &issues)
            }
            alert = field("alert", "a string", \.string)
            priority = field("priority", "an integer", \.integer)
            ttl = field("ttl", "a number", \.number)
            dedupeKey = field("dedupeKey", "a string", \.string)
            onDuplicate = field("onDuplicate", "a string", \.string)
            if let given = field("params", "an object", \.object) {
                // In name order only to report: the first problem names the first parameter.
                func limitsProblem<Members: Collection>(_ members: Members) -> String? where Members.Element == (key: String, value: JSON) {
                    ParameterLimits.problem(members.lazy.map { (name: $0.key, value: $0.value.string ?? "") })
                }
                if limitsProblem(given) != nil, let problem = limitsProblem(given.sorted { $0.key < $1.key }) {
                    issues.append(SpecIssue(pointer: "/params", code: "too-large", message: problem))
                    return
                }
                var params: [String: ParameterValue] = Dictionary(minimumCapacity: given.count)
                var mistyped: [String] = []
                for (name, value) in given where !value.isNull {
                    if let parameter = ParameterValue(json: value) { params[name] = parameter } else { mistyped.append(name) }
                }
                for name in mistyped.sorted() {
                    issues.append(SpecIssue(
                        pointer: "/params/" + JSONPointer.escape(name), code: "invalid-type",
                        message: "A parameter is a string, a number or a boolean."))
                }
                self.params = params
            }
        }
    }

    /// The item to store; throws 400 for a body that is not a JSON object, 413 for a spec past
    /// `SpecLimits.encodedSpec` as sent (before it is read), 422 with every problem. `now` bounds
    /// how far ahead `notBefore` may lie.
    static func item(session: String, body: [UInt8], alerts: RenderedAlerts, now: Date) throws -> NewItem {
        try item(session: session, body: body, alerts: alerts, now: now, extraMembers: []) { _, _ in }
    }

    /// `item`, for a body that has `extraMembers` too (a user's `reach`, a campaign's
    /// `audience`), which `readExtra` reads, its problems reported with the others.
    static func item(
        session: String, body: [UInt8], alerts: RenderedAlerts, now: Date, extraMembers: Set<String>,
        readExtra: (_ object: [String: JSON], _ issues: inout [SpecIssue]) -> Void
    ) throws -> NewItem {
        let (object, spans) = try JSONBody.objectAndSpans(body)
        if let span = spans["spec"], let issue = SpecLimits.sizeIssue(span.count, at: "/spec") { throw APIError.specTooLarge(issue) }
        // A member given as null is read as left out (`JSONBody`), so is a parameter.
        var issues = JSONBody.unknownMembers(of: object, among: members.union(extraMembers))
        readExtra(object, &issues)
        let fields = Body(object, issues: &issues)
        let notBefore = NotBeforeField.read(object, now: now, issues: &issues)
        let pacing = PacingField.read(object, issues: &issues)

        var accepted: (priority: Int, lane: Lane, dedupeKey: String, pacing: Pacing)?
        var content: QueueContent?
        // An alert of the wrong type was reported already: it still says which form was meant.
        let givesAlert = object["alert"].map { !$0.isNull } ?? false
        switch (givesAlert, object["spec"].flatMap { $0.isNull ? nil : $0 }) {
        case (true, nil):
            guard let alert = fields.alert else { break }
            switch alerts.check(alert, fields.params ?? [:]) {
            case .success(let checked): accepted = (checked.priority, checked.lane, checked.dedupeKey, checked.pacing)
            case .failure(let found): issues += found.issues
            }
            content = .alert(id: alert, parameters: fields.params ?? [:])
        case (false, let spec?):
            if fields.params != nil {
                issues.append(SpecIssue(pointer: "/params", code: "unknown-field", message: "params go with alert, not with spec."))
            }
            if let draft = checkSpec(spec, alerts.catalogs, &issues) {
                content = .spec(draft)
                let digest = (try? OrderedJSONEncoder().encode(draft)).map {
                    "spec:" + SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined()
                }
                accepted = (draft.priority, draft.kind.lane, digest ?? "", Pacing.none)
            }
        default:
            issues.append(SpecIssue(pointer: "", code: "alert-or-spec", message: "Give either alert (with params) or spec, not both."))
        }
        if let priority = fields.priority, !(0...1000).contains(priority) {
            issues.append(SpecIssue(pointer: "/priority", code: "out-of-range", message: "\(priority) is outside 0…1000."))
        }
        let ttlInRange = fields.ttl.map { $0 > 0 && $0 <= maxTTL } ?? true
        if !ttlInRange {
            issues.append(SpecIssue(pointer: "/ttl", code: "out-of-range", message: "The TTL is seconds, more than 0 and at most \(Int(maxTTL))."))
        }
        let effective = accepted.map {
            PacingField.effective(declared: $0.pacing, given: pacing, ttl: ttlInRange ? fields.ttl : nil, issues: &issues)
        }
        if let key = fields.dedupeKey, key.isEmpty || key.count > 200 {
            issues.append(SpecIssue(pointer: "/dedupeKey", code: "invalid-value", message: "A dedupe key has 1 to 200 characters."))
        }
        let onDuplicate = fields.onDuplicate.map(NewItem.OnDuplicate.init(rawValue:)) ?? .refresh
        if onDuplicate == nil {
            issues.append(SpecIssue(pointer: "/onDuplicate", code: "invalid-value", message: "onDuplicate is \"refresh\" or \"keep\"."))
        }
        guard issues.isEmpty, let accepted, let content, let onDuplicate, let effective else { throw APIError.invalidRequest(issues) }
        return NewItem(
            session: session, content: content, priority: fields.priority ?? accepted.priority, lane: accepted.lane,
            dedupeKey: fields.dedupeKey.map { "key:" + $0 } ?? accepted.dedupeKey, ttl: fields.ttl, onDuplicate: onDuplicate,
            notBefore: notBefore, pacing: effective)
    }

    /// The ad-hoc spec, read and validated as `POST /v1/specs/validate` does, pointers under `/spec`.
    static func checkSpec(_ tree: JSON, _ catalogs: CatalogRegistry, _ issues: inout [SpecIssue]) -> SpecDraft? {
        func under(_ found: [SpecIssue]) -> [SpecIssue] {
            found.map { SpecIssue(pointer: "/spec" + $0.pointer, code: $0.code, message: $0.message) }
        }
        guard case .object = tree else {
            issues.append(SpecIssue(pointer: "/spec", code: "invalid-type", message: "A spec is an object."))
            return nil
        }
        // Its size as sent was checked with the body; its lists are checked before it is decoded.
        let reading = SpecReader.inspect(json: tree)
        issues += under(reading.issues)
        guard let draft = reading.draft else { return nil }
        let result = SpecValidator(directory: catalogs).validate(draft)
        issues += under(result.errors)
        return result.isValid ? result.draft : nil
    }
}
