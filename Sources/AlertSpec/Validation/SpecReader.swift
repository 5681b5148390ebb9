import Foundation

/// Reads a spec draft from JSON as a client or an operator wrote it, reporting what does not fit
/// the model as issues with pointers: a missing or mistyped field, an unknown kind or action
/// type, and any member the model does not have (the model is closed, so a misspelt field is
/// an error rather than silently ignored). A known member given as `null` is read as left out
/// (JSON libraries write "no value" so); where a value is required, that is a `missing-field`.
public enum SpecReader {
    /// Envelope members a client may send back; the server fills them itself.
    public static let envelopeMembers: Set<String> = ["schemaVersion", "id", "lane", "locale", "direction"]

    /// The body is not JSON at all (as opposed to JSON that is not a valid spec).
    public struct MalformedJSON: Error, Sendable, Equatable {
        public var message: String
    }

    /// The spec's JSON is larger than ``SpecLimits/encodedSpec``: refused before it is parsed.
    public struct TooLarge: Error, Sendable, Equatable {
        public var issue: SpecIssue
    }

    /// What reading found: the draft when the JSON decodes, and the issues (a decoding failure,
    /// or members the model does not have). Validation adds its own issues after.
    public struct Reading: Sendable {
        public var draft: SpecDraft?
        public var issues: [SpecIssue]
    }

    /// Decodes `data`; throws `TooLarge` past the size limit, `MalformedJSON` when it is not a
    /// JSON object.
    public static func read(_ data: Data) throws -> Result<SpecDraft, InvalidSpec> {
        result(of: try inspect(data))
    }

    /// Decodes a JSON value already parsed (`JSONSerialization` or YAML types).
    public static func read(tree: Any) -> Result<SpecDraft, InvalidSpec> {
        result(of: inspect(tree: tree))
    }

    /// Decodes a parsed spec, such as a catalog file's: its size is that of its compact JSON.
    public static func read(json: JSON) -> Result<SpecDraft, InvalidSpec> {
        result(of: inspect(json: json, measure: true))
    }

    /// Reads `data` as far as it goes; throws `TooLarge` for more bytes than
    /// ``SpecLimits/encodedSpec`` (before parsing), `MalformedJSON` when it is not a JSON object.
    ///
    /// Parsed by `JSON(parsing:)`, as the queue's bodies are, so a spec is JSON by the same
    /// rules wherever it is sent (a repeated member name is malformed here too). A UTF-8 byte
    /// order mark, which editors write into files, is skipped.
    public static func inspect(_ data: Data) throws -> Reading {
        try checkSize(data)
        let bytes = Array(data.starts(with: byteOrderMark) ? data.dropFirst(3) : data[...])
        let json: JSON
        do {
            json = try JSON(parsing: bytes)
        } catch {
            throw MalformedJSON(message: "The body is not valid JSON.")
        }
        guard case .object = json else { throw MalformedJSON(message: "The body must be a JSON object.") }
        return inspect(json: json)
    }

    /// Throws `TooLarge` when `data`, less a byte order mark, is past ``SpecLimits/encodedSpec``:
    /// the first check of `inspect(_:)`, for a caller that refuses a body before handing it on.
    public static func checkSize(_ data: Data) throws {
        let size = data.starts(with: byteOrderMark) ? data.count - 3 : data.count
        if let issue = SpecLimits.sizeIssue(size) { throw TooLarge(issue: issue) }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Reads a JSON value already parsed (`JSONSerialization` or YAML types) as far as it goes.
    public static func inspect(tree: Any) -> Reading {
        guard JSONSerialization.isValidJSONObject(tree),
            let data = try? JSONSerialization.data(withJSONObject: tree, options: [.withoutEscapingSlashes]),
            let json = try? JSON(parsing: Array(data))
        else {
            return Reading(draft: nil, issues: [SpecIssue(pointer: "", code: "invalid-type", message: "A spec must be an object.")])
        }
        return inspect(json: json, measure: true)
    }

    /// Reads a parsed spec whose size its caller has held to ``SpecLimits/encodedSpec`` (the
    /// bytes it came in); `measure` checks the size of its compact JSON instead. Lists past
    /// their limit are refused before anything is decoded.
    public static func inspect(json: JSON, measure: Bool = false) -> Reading {
        guard case .object = json else {
            return Reading(draft: nil, issues: [SpecIssue(pointer: "", code: "invalid-type", message: "A spec must be an object.")])
        }
        let tooMany = SpecLimits.countIssues(in: json)
        guard tooMany.isEmpty else { return Reading(draft: nil, issues: tooMany) }
        // Written back as compact JSON for `JSONDecoder`, whose errors carry the coding paths
        // and messages the issues are made of.
        var output = JSONOutput(capacity: 4096)
        guard (try? json.writeJSON(to: &output)) != nil else {
            return Reading(draft: nil, issues: [SpecIssue(pointer: "", code: "invalid-spec", message: "The spec could not be read.")])
        }
        let bytes = output.bytes
        if measure, let issue = SpecLimits.sizeIssue(bytes.count) { return Reading(draft: nil, issues: [issue]) }
        return decode(json, from: Data(bytes))
    }

    private static func result(of reading: Reading) -> Result<SpecDraft, InvalidSpec> {
        guard let draft = reading.draft, reading.issues.isEmpty else { return .failure(InvalidSpec(reading.issues)) }
        return .success(draft)
    }

    /// Decodes `data`, the compact JSON of `json`, and finds the members of `json` the model does not have.
    private static func decode(_ json: JSON, from data: Data) -> Reading {
        let draft: SpecDraft
        let stepped = DecodingIssues()
        do {
            draft = try DecodingIssues.$current.withValue(stepped) { try JSONDecoder().decode(SpecDraft.self, from: data) }
        } catch let error as SpecDecodingError {
            return Reading(draft: nil, issues: stepped.issues + [SpecIssue(pointer: error.pointer, code: error.code, message: error.message)])
        } catch let error as DecodingError {
            return Reading(draft: nil, issues: stepped.issues + [issue(for: error)])
        } catch {
            return Reading(draft: nil, issues: [SpecIssue(pointer: "", code: "invalid-spec", message: "The spec could not be read.")])
        }
        var unknown: [SpecIssue] = stepped.issues
        // Every member the model knows, those without a value written as null.
        var encoder = OrderedJSONEncoder()
        encoder.writesAbsentOptionals = true
        if let encoded = try? encoder.encode(draft), let normalized = try? JSON(parsing: encoded) {
            findUnknown(json, in: normalized, at: "", into: &unknown)
        }
        return Reading(draft: draft, issues: unknown)
    }

    /// Every member of `given` absent from `known` at the same place (`known` is the normalized
    /// form with every member the model knows: defaults filled in, optionals without a value null).
    private static func findUnknown(_ given: JSON, in known: JSON, at pointer: String, into issues: inout [SpecIssue]) {
        switch (given, known) {
        case (.object(let object), .object(let knownObject)):
            for key in object.keys.sorted() {
                if pointer.isEmpty, envelopeMembers.contains(key) { continue }
                let value = object[key]!
                // A null member was read as left out; so was a null parameter of a `next` action
                // (`params` is the one open object, so its names are never unknown).
                if value.isNull, knownObject[key] != nil || pointer.hasSuffix("/action/params") { continue }
                let at = pointer + "/" + JSONPointer.escape(key)
                if let knownValue = knownObject[key] {
                    findUnknown(value, in: knownValue, at: at, into: &issues)
                } else {
                    issues.append(SpecIssue(pointer: at, code: "unknown-field", message: "\"\(key)\" is not a field here."))
                }
            }
        case (.array(let array), .array(let knownArray)):
            for (index, element) in array.enumerated() where index < knownArray.count {
                findUnknown(element, in: knownArray[index], at: "\(pointer)/\(index)", into: &issues)
            }
        default:
            break
        }
    }

    /// A decoding failure as an issue with the pointer of where it happened.
    public static func issue(for error: DecodingError) -> SpecIssue {
        switch error {
        case .keyNotFound(let key, let context):
            return SpecIssue(
                pointer: JSONPointer.to(context.codingPath + [key]), code: "missing-field",
                message: "The field \"\(key.stringValue)\" is required.")
        case .valueNotFound(let type, let context):
            let name = context.codingPath.last.map { $0.intValue == nil ? "The field \"\($0.stringValue)\"" : "This element" }
            return SpecIssue(
                pointer: JSONPointer.to(context.codingPath), code: "missing-field",
                message: "\(name ?? "A value") is required (\(typeName(type))); null leaves it out.")
        case .typeMismatch(let type, let context):
            return SpecIssue(
                pointer: JSONPointer.to(context.codingPath), code: "invalid-type",
                message: "This must be \(typeName(type)).")
        case .dataCorrupted(let context):
            let value = context.debugDescription.split(separator: "invalid String value ").last.map { String($0) }
            let message = value.map { "\($0) is not one of the allowed values." } ?? context.debugDescription
            return SpecIssue(pointer: JSONPointer.to(context.codingPath), code: "invalid-value", message: message)
        @unknown default:
            return SpecIssue(pointer: "", code: "invalid-spec", message: "The spec could not be read.")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
