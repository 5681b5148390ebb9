import AlertCatalogs
import AlertSpec
import Foundation
import MicroHTTP

/// `POST /v1/specs/validate`: checks a spec a client or an operator wrote.
struct SpecHandlers {
    let catalogs: CatalogRegistry

    /// The answer for a valid spec: its normalized form and what normalization changed.
    struct Validated: Encodable, ResponseGenerator {
        var valid = true
        var spec: SpecDraft
        var warnings: [SpecIssue]
    }

    func register(in router: inout Router) {
        let validator = SpecValidator(directory: catalogs)
        router.add("POST", "/v1/specs/validate") { request in
            // Unknown fields and broken rules are reported together, so one round trip shows all.
            // A body past SpecLimits.encodedSpec is refused (413) before it is parsed.
            let reading = try SpecReader.inspect(Data(request.http.body))
            guard let draft = reading.draft else { throw APIError.invalidSpec(reading.issues) }
            let result = validator.validate(draft)
            let errors = reading.issues + result.errors
            guard errors.isEmpty else { throw APIError.invalidSpec(errors, warnings: result.warnings) }
            return Validated(spec: result.draft, warnings: result.warnings)
        }
    }
}
