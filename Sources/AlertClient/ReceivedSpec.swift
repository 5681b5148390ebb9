import AlertSpec
import Foundation

/// Specs as they arrive from the server, read and checked with the shared model's own code:
/// `AlertSpec`'s decoder, then `SpecValidator`, the rules the server itself renders by.
enum ReceivedSpec {
    /// `Body` (a spec, or an answer holding one) decoded from `data`; a spec the model cannot
    /// read is ``AlertClientError/Code/invalidSpec`` with the issue and its pointer, a body that
    /// is not JSON at all ``AlertClientError/Code/malformedResponse``.
    static func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as SpecDecodingError {
            throw AlertClientError.invalidSpec([SpecIssue(pointer: error.pointer, code: error.code, message: error.message)])
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw AlertClientError.malformedResponse("the body is not JSON: \(context.debugDescription)")
        } catch let error as DecodingError {
            throw AlertClientError.invalidSpec([SpecReader.issue(for: error)])
        }
    }

    /// `spec` when this client's model can show it: a schema version it knows, and every rule
    /// of the validator kept (`next` actions are checked for form only: the client has no
    /// catalog directory). Else ``AlertClientError/Code/invalidSpec`` with every issue.
    static func check(_ spec: AlertSpec) throws -> AlertSpec {
        guard spec.schemaVersion <= AlertSpec.currentSchemaVersion else {
            throw AlertClientError.invalidSpec([
                SpecIssue(
                    pointer: "/schemaVersion", code: "unsupported-schema-version",
                    message: "Schema version \(spec.schemaVersion) is newer than this client's \(AlertSpec.currentSchemaVersion).")
            ])
        }
        let validation = SpecValidator().validate(SpecDraft(priority: spec.priority, body: spec.body))
        guard validation.isValid else { throw AlertClientError.invalidSpec(validation.errors) }
        return spec
    }
}
