import AlertSpec
import MicroHTTP

/// The JSON object of a queue call's body, read with `JSON(parsing:)`, and its members checked
/// the way every queue call reports them: unknown members first, sorted by name, then members
/// of the wrong type. A known member given as null is a member left out (JSON libraries write
/// "no value" so), never an issue of its own. The small bodies (`{"ttl": …}`, `{"action": …}`, `{"seconds": …}`)
/// are read through `read(_:members:)`; the enqueue body through `object(_:)`.
struct JSONBody {
    let members: [String: JSON]

    /// nil for an empty body; 400 for one that is not a JSON object; 422 for a member not in
    /// `allowed`.
    static func read(_ request: Request, members allowed: Set<String>) throws -> JSONBody? {
        guard !request.http.body.isEmpty else { return nil }
        let object = try object(request.http.body, notAnObject: "The body must be a JSON object, or empty.")
        let issues = unknownMembers(of: object, among: allowed)
        if !issues.isEmpty { throw APIError.invalidRequest(issues) }
        return JSONBody(members: object)
    }

    /// The members of the object `body` holds; 400 with `notAnObject` when it is not JSON
    /// (see `JSON(parsing:)` for how strict that is) or not an object.
    static func object(_ body: [UInt8], notAnObject: String = "The body must be a JSON object.") throws -> [String: JSON] {
        guard let object = (try? JSON(parsing: body))?.object else { throw APIError.malformedJSON(notAnObject) }
        return object
    }

    /// The same, with the bytes each member's value took in `body` (see `JSON.parsingMembers`).
    static func objectAndSpans(_ body: [UInt8]) throws -> (members: [String: JSON], spans: [String: Range<Int>]) {
        guard let parsed = try? JSON.parsingMembers(body), let object = parsed.json.object else {
            throw APIError.malformedJSON("The body must be a JSON object.")
        }
        return (object, parsed.spans)
    }

    /// The string member `name`: nil when not given; 422 when not a string.
    func string(_ name: String) throws -> String? {
        try member(name, "a string", \.string)
    }

    /// The number member `name` (an integer too, never a boolean): nil when not given; 422
    /// when not a number.
    func number(_ name: String) throws -> Double? {
        try member(name, "a number", \.number)
    }

    private func member<T>(_ name: String, _ expected: String, _ read: (JSON) -> T?) throws -> T? {
        var issues: [SpecIssue] = []
        let value = Self.member(name, of: members, expected, read, issues: &issues)
        if !issues.isEmpty { throw APIError.invalidRequest(issues) }
        return value
    }

    /// The member `name` of `object` as `read` gives it; nil when absent or null, or with an
    /// `invalid-type` issue when `read` gives nil.
    static func member<T>(
        _ name: String, of object: [String: JSON], _ expected: String, _ read: (JSON) -> T?, issues: inout [SpecIssue]
    ) -> T? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let read = read(value) else {
            issues.append(SpecIssue(pointer: "/" + JSONPointer.escape(name), code: "invalid-type", message: "This must be \(expected)."))
            return nil
        }
        return read
    }

    /// An `unknown-field` issue for each member of `object` not in `members`, by name (null
    /// or not: null leaves out a member the body has, it does not make up one).
    static func unknownMembers(of object: [String: JSON], among members: Set<String>) -> [SpecIssue] {
        // Sorted only when there is something to report.
        guard !object.keys.allSatisfy(members.contains) else { return [] }
        return object.keys.sorted().filter { !members.contains($0) }.map {
            SpecIssue(pointer: "/" + JSONPointer.escape($0), code: "unknown-field", message: "\"\($0)\" is not a field here.")
        }
    }
}
