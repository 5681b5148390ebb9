import AlertSpec
import Foundation
import MicroHTTP

/// The small JSON bodies of the queue calls (`{"ttl": …}`, `{"action": …}`, `{"seconds": …}`),
/// decoded with `Decodable` — which tells a number from a boolean, unlike `JSONSerialization`
/// on Linux, where 1 also reads as `true`.
enum JSONBody {
    /// nil for an empty body; 400 for one that is not a JSON object; 422 for a member not in
    /// `T`'s keys, null, or of the wrong type.
    static func decode<T: Decodable>(_: T.Type, from request: Request, members: Set<String>) throws -> T? {
        let body = Data(request.http.body)
        guard !body.isEmpty else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw APIError.malformedJSON("The body must be a JSON object, or empty.")
        }
        let unknown = object.keys.sorted().filter { !members.contains($0) }.map {
            SpecIssue(pointer: "/" + JSONPointer.escape($0), code: "unknown-field", message: "\"\($0)\" is not a field here.")
        }
        let issues = unknown + nullMembers(of: object, among: members)
        if !issues.isEmpty { throw APIError.invalidRequest(issues) }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw APIError.invalidRequest([SpecReader.issue(for: error)])
        }
    }

    /// A `null-value` issue for each of `members` given as null: a member is left out, not
    /// nulled (as in specs), so the decoder never reads null as "not given".
    static func nullMembers(of object: [String: Any], among members: Set<String>) -> [SpecIssue] {
        object.keys.sorted().filter { members.contains($0) && object[$0] is NSNull }.map {
            SpecIssue(
                pointer: "/" + JSONPointer.escape($0), code: "null-value", message: "null is not allowed; leave the field out instead.")
        }
    }
}
