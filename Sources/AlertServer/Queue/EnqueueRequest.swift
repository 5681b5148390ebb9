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

    private struct Body: Decodable {
        var alert: String?
        var params: [String: ParameterValue]?
        var priority: Int?
        var ttl: Double?
        var dedupeKey: String?
    }

    /// The item to store; throws 400 for a body that is not a JSON object, 422 with every problem.
    static func item(session: String, body: [UInt8], catalogs: CatalogRegistry) throws -> NewItem {
        let data = Data(body)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw APIError.malformedJSON("The body must be a JSON object.")
        }
        var issues = object.keys.sorted().filter { !members.contains($0) }.map {
            SpecIssue(pointer: "/" + JSONPointer.escape($0), code: "unknown-field", message: "\"\($0)\" is not a field here.")
        }
        let fields: Body
        do {
            fields = try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw APIError.invalidRequest(issues + [SpecReader.issue(for: error)])
        }

        var draft: SpecDraft?
        var content: QueueContent?
        var dedupe: String?
        switch (fields.alert, object["spec"]) {
        case (let alert?, nil):
            (draft, dedupe) = checkAlert(alert, fields.params ?? [:], catalogs, &issues)
            content = .alert(id: alert, parameters: fields.params ?? [:])
        case (nil, let spec?):
            if fields.params != nil {
                issues.append(SpecIssue(pointer: "/params", code: "unknown-field", message: "params go with alert, not with spec."))
            }
            draft = checkSpec(spec, catalogs, &issues)
            content = draft.map { .spec($0) }
            dedupe = draft.flatMap { try? OrderedJSONEncoder().encode($0) }.map {
                "spec:" + SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined()
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
        guard issues.isEmpty, let draft, let content else { throw APIError.invalidRequest(issues) }
        return NewItem(
            session: session, content: content, priority: fields.priority ?? draft.priority, lane: draft.kind.lane,
            dedupeKey: fields.dedupeKey.map { "key:" + $0 } ?? dedupe ?? "", ttl: fields.ttl)
    }

    /// The alert rendered once (source language) to check it exists and its parameters build
    /// it; also its dedupe key: the alert's own, else its id with its parameters.
    static func checkAlert(
        _ alert: String, _ parameters: [String: ParameterValue], _ catalogs: CatalogRegistry, _ issues: inout [SpecIssue]
    ) -> (SpecDraft?, String?) {
        let parts = alert.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let catalog = catalogs[parts[0]], catalog.entry(parts[1]) != nil else {
            issues.append(SpecIssue(pointer: "/alert", code: "unknown-alert", message: "There is no alert \"\(alert)\"."))
            return (nil, nil)
        }
        do {
            let draft = try catalog.draft(type: parts[1], parameters: parameters, locale: catalog.sourceLanguage)
            let key = catalog.dedupeKey(type: parts[1], parameters: parameters).map { "alert:\(parts[0]):\($0)" }
            let canonical = (try? OrderedJSONEncoder().encode(ParameterList(parameters))).map { String(decoding: $0, as: UTF8.self) }
            return (draft, key ?? "alert:\(alert)?\(canonical ?? "")")
        } catch let error as ParameterError {
            issues.append(SpecIssue(pointer: "/params/" + JSONPointer.escape(error.parameter), code: error.code, message: error.description))
        } catch let error as InvalidSpec {
            issues += error.issues.map {
                SpecIssue(pointer: "/params", code: $0.code, message: "These parameters make the alert break a rule at \($0.pointer): \($0.message)")
            }
        } catch {
            issues.append(SpecIssue(pointer: "/alert", code: "unrenderable", message: "\(alert) cannot be rendered."))
        }
        return (nil, nil)
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
