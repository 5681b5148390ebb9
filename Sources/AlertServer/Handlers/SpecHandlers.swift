import AlertCatalogs
import AlertSpec
import Foundation
import MicroHTTP

/// `POST /v1/specs/validate`: checks a spec a client or an operator wrote.
///
/// Validating a spec near ``SpecLimits/encodedSpec`` takes milliseconds of CPU, so it runs on
/// `work`'s threads, not on the HTTP worker that read it: a render on that worker is answered
/// meanwhile. The body's size is checked first, on the worker (413 costs no thread); when
/// `work` is full, the answer is 503 `busy` with `Retry-After`.
struct SpecHandlers {
    /// What `next` actions are checked against: the catalogs served when the request came.
    let catalogs: @Sendable () -> CatalogRegistry
    let work: BoundedWork

    init(catalogs: CatalogRegistry, work: BoundedWork = .forSpecs()) {
        self.catalogs = { catalogs }
        self.work = work
    }

    init(current: CurrentCatalogs, work: BoundedWork = .forSpecs()) {
        self.catalogs = { current.now.registry }
        self.work = work
    }

    /// The answer for a valid spec: its normalized form and what normalization changed.
    /// Written by its writer (the same bytes as its `Encodable` form): a large spec's in a
    /// fraction of the time the `Encoder` protocol takes.
    struct Validated: Encodable, JSONObjectWritable, ResponseGenerator {
        var valid = true
        var spec: SpecDraft
        var warnings: [SpecIssue]

        func writeJSONMembers(to output: inout JSONOutput) throws {
            output.member("valid", valid)
            try output.member("spec", spec)
            try output.member("warnings", warnings)
        }
    }

    func register(in router: inout Router) {
        let (catalogs, work) = (catalogs, work)
        router.addAsync("POST", "/v1/specs/validate") { request in
            let body = Data(request.http.body)
            try SpecReader.checkSize(body)
            let validator = SpecValidator(directory: catalogs())
            return PendingResponse { answer in
                // The answer is made (encoded) on the work's thread too, by `answer`.
                let taken = work.submit {
                    answer(Result<any ResponseGenerator, any Error> { try Self.validate(body, with: validator) })
                }
                if !taken {
                    answer(.failure(APIError.busy("The server is validating as many specs as it takes; try again shortly.")))
                }
            }
        }
    }

    /// The answer for `body`: the normalized spec, or every problem. Unknown fields and broken
    /// rules are reported together, so one round trip shows all.
    static func validate(_ body: Data, with validator: SpecValidator) throws -> Validated {
        let reading = try SpecReader.inspect(body)
        guard let draft = reading.draft else { throw APIError.invalidSpec(reading.issues) }
        let result = validator.validate(draft)
        let errors = reading.issues + result.errors
        guard errors.isEmpty else { throw APIError.invalidSpec(errors, warnings: result.warnings) }
        return Validated(spec: result.draft, warnings: result.warnings)
    }
}
