import AlertSpec
import Foundation

/// An item's content as every store keeps it: JSON text, `{"alert": "catalog/type", "params":
/// {…}}` or `{"spec": {…}}` — plain JSON rather than `QueueContent`'s synthesized coding, so
/// other tools can read it, and the same in SQLite and PostgreSQL.
///
/// ```swift
/// let text = try StoredContent.json(.alert(id: "app/saved", parameters: [:]))   // {"alert":"app/saved","params":{}}
/// let content = try StoredContent.content(json: text)
/// ```
public enum StoredContent {
    /// The text to store: members in a fixed order, parameters sorted by name, so the same
    /// content is always the same text.
    public static func json(_ content: QueueContent) throws -> String {
        var output = JSONOutput(capacity: 256)
        output.beginObject()
        switch content {
        case .alert(let id, let parameters):
            output.member("alert", id)
            try output.member("params", ParameterList(parameters))
        case .spec(let draft):
            try output.member("spec", draft)
        }
        output.endObject()
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The content stored as `json`; `UnreadableContent` for text no version of alertd wrote.
    public static func content(json: String) throws -> QueueContent {
        if let alert = alert(json: json) { return alert }
        let form = try JSONDecoder().decode(Form.self, from: Data(json.utf8))
        if let id = form.alert { return .alert(id: id, parameters: form.params ?? [:]) }
        if let spec = form.spec { return .spec(spec) }
        throw UnreadableContent(reason: "stored content is neither an alert nor a spec")
    }

    /// An alert's content read by `JSON(parsing:)`, with the cases `ParameterValue`'s decoder
    /// gives; nil for anything else (a spec, text no version wrote), which the decoder reads.
    /// Every step loads its session's live items, and decoding them through `JSONDecoder` was
    /// a tenth of an enqueue.
    private static func alert(json: String) -> QueueContent? {
        guard case .object(let members)? = try? JSON(parsing: Array(json.utf8)),
            let id = members["alert"]?.string, members.keys.allSatisfy({ $0 == "alert" || $0 == "params" })
        else { return nil }
        var parameters: [String: ParameterValue] = [:]
        if let params = members["params"] {
            guard let given = params.object else { return nil }
            for (name, value) in given {
                guard let parameter = ParameterValue(json: value) else { return nil }
                parameters[name] = parameter
            }
        }
        return .alert(id: id, parameters: parameters)
    }

    /// What any version wrote, as the decoder reads it.
    private struct Form: Decodable {
        var alert: String?
        var params: [String: ParameterValue]?
        var spec: SpecDraft?
    }
}

/// Stored data this version cannot read (written by a newer one, or edited by hand).
public struct UnreadableContent: Error, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "The queue store holds data alertd cannot read: \(reason)." }
}
