import AlertCatalogs
import AlertQueue
import AlertSpec
import Crypto
import Foundation

/// `POST /v1/sessions/{session}/queue`: `{"alert": "catalog/type", "params": {…}}` or
/// `{"spec": {…}}`, with optional `priority` (0…1000, default the alert's), `ttl` (seconds) and
/// `dedupeKey`. Every problem is reported at once, each with a pointer into the body.
struct EnqueueRequest {
    static let members: Set<String> = ["alert", "params", "spec", "priority", "ttl", "dedupeKey"]
    /// The longest wait an item may be given: 30 days.
    static let maxTTL = 30.0 * 86_400

    /// The body's fields, read from the parsed object: every field of the wrong type is reported
    /// (a decoder would stop at the first), and one parse serves both this and the spec check.
    private struct Body {
        var alert: String?
        var params: [String: ParameterValue]?
        var priority: Int?
        var ttl: Double?
        var dedupeKey: String?

        init(_ object: [String: Any], issues: inout [SpecIssue]) {
            func wrongType(_ name: String, _ expected: String) {
                issues.append(SpecIssue(pointer: "/" + name, code: "invalid-type", message: "This must be \(expected)."))
            }
            func field<T>(_ name: String, _ expected: String, _ read: (Any) -> T?) -> T? {
                guard let value = object[name], !(value is NSNull) else { return nil }
                guard let read = read(value) else {
                    wrongType(name, expected)
                    return nil
                }
                return read
            }
            alert = field("alert", "a string") { $0 as? String }
            priority = field("priority", "an integer") { JSONValue.integer($0) }
            ttl = field("ttl", "a number") { JSONValue.number($0) }
            dedupeKey = field("dedupeKey", "a string") { $0 as? String }
            if let given = field("params", "an object", { $0 as? [String: Any] }) {
                let texts = given.sorted { $0.key < $1.key }.map { (name: $0.key, value: ($0.value as? String) ?? "") }
                if let problem = ParameterLimits.problem(texts) {
                    issues.append(SpecIssue(pointer: "/params", code: "too-large", message: problem))
                    return
                }
                var params: [String: ParameterValue] = [:]
                for (name, value) in given {
                    if let parameter = JSONValue.parameter(value) {
                        params[name] = parameter
                    } else {
                        issues.append(SpecIssue(
                            pointer: "/params/" + JSONPointer.escape(name), code: "invalid-type",
                            message: "A parameter is a string, a number or a boolean."))
                    }
                }
                self.params = params
            }
        }
    }

    /// The item to store; throws 400 for a body that is not a JSON object, 422 with every problem.
    static func item(session: String, body: [UInt8], alerts: RenderedAlerts) throws -> NewItem {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw APIError.malformedJSON("The body must be a JSON object.")
        }
        var issues = object.keys.sorted().filter { !members.contains($0) }.map {
            SpecIssue(pointer: "/" + JSONPointer.escape($0), code: "unknown-field", message: "\"\($0)\" is not a field here.")
        }
        // A null member is reported once, here, and otherwise read as not given.
        issues += JSONBody.nullMembers(of: object, among: members)
        let fields = Body(object, issues: &issues)

        var accepted: (priority: Int, lane: Lane, dedupeKey: String)?
        var content: QueueContent?
        // An alert of the wrong type was reported already: it still says which form was meant.
        let givesAlert = object["alert"].map { !($0 is NSNull) } ?? false
        switch (givesAlert, object["spec"].flatMap { $0 is NSNull ? nil : $0 }) {
        case (true, nil):
            guard let alert = fields.alert else { break }
            switch alerts.check(alert, fields.params ?? [:]) {
            case .success(let checked): accepted = (checked.priority, checked.lane, checked.dedupeKey)
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
                accepted = (draft.priority, draft.kind.lane, digest ?? "")
            }
        default:
            issues.append(SpecIssue(pointer: "", code: "alert-or-spec", message: "Give either alert (with params) or spec, not both."))
        }
        if let priority = fields.priority, !(0...1000).contains(priority) {
            issues.append(SpecIssue(pointer: "/priority", code: "out-of-range", message: "\(priority) is outside 0…1000."))
        }
        if let ttl = fields.ttl, !(ttl > 0 && ttl <= maxTTL) {
            issues.append(SpecIssue(pointer: "/ttl", code: "out-of-range", message: "The TTL is seconds, more than 0 and at most \(Int(maxTTL))."))
        }
        if let key = fields.dedupeKey, key.isEmpty || key.count > 200 {
            issues.append(SpecIssue(pointer: "/dedupeKey", code: "invalid-value", message: "A dedupe key has 1 to 200 characters."))
        }
        guard issues.isEmpty, let accepted, let content else { throw APIError.invalidRequest(issues) }
        return NewItem(
            session: session, content: content, priority: fields.priority ?? accepted.priority, lane: accepted.lane,
            dedupeKey: fields.dedupeKey.map { "key:" + $0 } ?? accepted.dedupeKey, ttl: fields.ttl)
    }

    /// The ad-hoc spec, read and validated as `POST /v1/specs/validate` does, pointers under `/spec`.
    static func checkSpec(_ tree: Any, _ catalogs: CatalogRegistry, _ issues: inout [SpecIssue]) -> SpecDraft? {
        func under(_ found: [SpecIssue]) -> [SpecIssue] {
            found.map { SpecIssue(pointer: "/spec" + $0.pointer, code: $0.code, message: $0.message) }
        }
        guard tree is [String: Any] else {
            issues.append(SpecIssue(pointer: "/spec", code: "invalid-type", message: "A spec is an object."))
            return nil
        }
        let reading = SpecReader.inspect(tree: tree)
        issues += under(reading.issues)
        guard let draft = reading.draft else { return nil }
        let result = SpecValidator(directory: catalogs).validate(draft)
        issues += under(result.errors)
        return result.isValid ? result.draft : nil
    }
}
