import AlertCatalogs
import AlertQueue
import AlertSpec
import MicroHTTP

/// Every error the API gives: it knows its HTTP status and its problem+json form (RFC 9457).
/// A struct around a private enum, so new cases break no one.
public struct APIError: Error, Sendable, ResponseGenerator, CustomStringConvertible {
    private enum Reason: Sendable {
        case notFound(String)
        case methodNotAllowed(allow: [String])
        case badRequest(String)
        case invalidCursor(String)
        case parameter(ParameterError)
        case malformedJSON(String)
        case invalidSpec(errors: [SpecIssue], warnings: [SpecIssue])
        case invalidRequest([SpecIssue])
        case specTooLarge(SpecIssue)
        case refused(HTTPRequestFailure)
        case unauthorized(String)
        case forbidden(String)
        case unsupportedMediaType(String)
        case queue(QueueError)
        case busy(String)
        case noCatalogFolder(String)
        case conflict(code: String, String)
        case invalidCatalogs(String, errors: [CatalogProblem], warnings: [CatalogProblem])
        case `internal`
    }

    private let reason: Reason

    public static func notFound(_ detail: String) -> Self { .init(reason: .notFound(detail)) }
    public static func methodNotAllowed(allow: [String]) -> Self { .init(reason: .methodNotAllowed(allow: allow)) }
    public static func badRequest(_ detail: String) -> Self { .init(reason: .badRequest(detail)) }
    /// A feed cursor this API never wrote (400).
    public static func invalidCursor(_ detail: String) -> Self { .init(reason: .invalidCursor(detail)) }
    public static func parameter(_ error: ParameterError) -> Self { .init(reason: .parameter(error)) }
    public static func refused(_ failure: HTTPRequestFailure) -> Self { .init(reason: .refused(failure)) }
    /// The body is not JSON (400).
    public static func malformedJSON(_ detail: String) -> Self { .init(reason: .malformedJSON(detail)) }
    /// A spec that breaks rules (422), with every error and the warnings so far.
    public static func invalidSpec(_ errors: [SpecIssue], warnings: [SpecIssue] = []) -> Self {
        .init(reason: .invalidSpec(errors: errors, warnings: warnings))
    }
    /// A body whose members break rules (422), with every problem and its pointer.
    public static func invalidRequest(_ errors: [SpecIssue]) -> Self { .init(reason: .invalidRequest(errors)) }
    /// A spec past `SpecLimits.encodedSpec`: 413, the issue (its pointer and the limit) in `errors`.
    public static func specTooLarge(_ issue: SpecIssue) -> Self { .init(reason: .specTooLarge(issue)) }
    /// No valid token (401).
    public static func unauthorized(_ detail: String) -> Self { .init(reason: .unauthorized(detail)) }
    /// A valid token that does not open this call (403).
    public static func forbidden(_ detail: String) -> Self { .init(reason: .forbidden(detail)) }
    /// A body in a media type the call does not read (415).
    public static func unsupportedMediaType(_ detail: String) -> Self { .init(reason: .unsupportedMediaType(detail)) }
    /// The server has as much of this work under way as it takes (503, `Retry-After: 1`).
    public static func busy(_ detail: String) -> Self { .init(reason: .busy(detail)) }
    /// A catalog reload asked of a server that reads no catalog folder (409).
    public static func noCatalogFolder(_ detail: String) -> Self { .init(reason: .noCatalogFolder(detail)) }
    /// A request that clashes with what is stored (409), such as a campaign id taken already.
    public static func conflict(code: String, _ detail: String) -> Self { .init(reason: .conflict(code: code, detail)) }
    /// A catalog reload that found problems in the files (422, every one listed).
    public static func invalidCatalogs(_ detail: String, errors: [CatalogProblem], warnings: [CatalogProblem]) -> Self {
        .init(reason: .invalidCatalogs(detail, errors: errors, warnings: warnings))
    }
    /// Something failed inside; the client learns nothing more (the cause goes to the log).
    public static let `internal` = APIError(reason: .internal)

    /// Maps any error a handler throws to the API's form.
    public init(_ error: any Error) {
        switch error {
        case let error as APIError: self = error
        case let error as ParameterError: self = .parameter(error)
        case let error as InvalidSpec: self = .invalidSpec(error.issues)
        case let error as SpecReader.MalformedJSON: self = .malformedJSON(error.message)
        case let error as SpecReader.TooLarge: self = .specTooLarge(error.issue)
        case let error as QueueError: self = .init(reason: .queue(error))
        case let error as CatalogError where error.isNotFound: self = .notFound(error.description)
        default: self = .internal
        }
    }

    private init(reason: Reason) { self.reason = reason }

    public var status: Int {
        switch reason {
        case .notFound: 404
        case .methodNotAllowed: 405
        case .badRequest, .invalidCursor, .parameter, .malformedJSON: 400
        case .invalidSpec, .invalidRequest, .invalidCatalogs: 422
        case .noCatalogFolder, .conflict: 409
        case .specTooLarge: 413
        case .refused(let failure): failure.status
        case .unauthorized: 401
        case .forbidden: 403
        case .unsupportedMediaType: 415
        case .queue(let error):
            switch error.kind {
            case .notFound: 404
            case .gone: 410
            case .queueFull: 429
            case .unavailable: 503
            }
        case .busy: 503
        case .internal: 500
        }
    }

    /// A 5xx that tells of a fault, whose cause is logged; `busy` is load, not a fault.
    var isFailure: Bool {
        if case .busy = reason { return false }
        return status >= 500
    }

    /// A stable code, also the last part of the problem `type`.
    public var code: String {
        switch reason {
        case .notFound: "not-found"
        case .methodNotAllowed: "method-not-allowed"
        case .badRequest: "bad-request"
        case .invalidCursor: "invalid-cursor"
        case .parameter(let error): error.code
        case .malformedJSON: "malformed-json"
        case .invalidSpec: "invalid-spec"
        case .invalidRequest: "invalid-request"
        case .specTooLarge: "spec-too-large"
        case .refused(let failure): failure.code
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .unsupportedMediaType: "unsupported-media-type"
        case .queue(let error): error.code
        case .busy: "busy"
        case .noCatalogFolder: "no-catalog-folder"
        case .conflict(let code, _): code
        case .invalidCatalogs: "invalid-catalogs"
        case .internal: "internal"
        }
    }

    public var title: String {
        switch reason {
        case .notFound: "Not found"
        case .methodNotAllowed: "Method not allowed"
        case .badRequest: "Bad request"
        case .invalidCursor: "Invalid cursor"
        case .parameter: "Invalid parameter"
        case .malformedJSON: "Malformed JSON"
        case .invalidSpec: "Invalid spec"
        case .invalidRequest: "Invalid request"
        case .specTooLarge: "Spec too large"
        case .refused(let failure): failure.title
        case .unauthorized: "Unauthorized"
        case .forbidden: "Forbidden"
        case .unsupportedMediaType: "Unsupported media type"
        case .queue(let error):
            switch error.kind {
            case .notFound: "Not found"
            case .gone: "Gone"
            case .queueFull: "Too many items"
            case .unavailable: "Service unavailable"
            }
        case .busy: "Busy"
        case .noCatalogFolder: "No catalog folder"
        case .conflict: "Conflict"
        case .invalidCatalogs: "Invalid catalogs"
        case .internal: "Internal error"
        }
    }

    public var description: String {
        switch reason {
        case .notFound(let detail), .badRequest(let detail), .invalidCursor(let detail), .malformedJSON(let detail): detail
        case .invalidSpec(let errors, _):
            errors.count == 1 ? "The spec breaks a rule: \(errors[0].message)" : "The spec breaks \(errors.count) rules; see errors."
        case .invalidRequest(let errors):
            errors.count == 1
                ? (errors[0].pointer.isEmpty ? "" : errors[0].pointer + ": ") + errors[0].message
                : "The request has \(errors.count) problems; see errors."
        case .specTooLarge(let issue): issue.message
        case .methodNotAllowed(let allow): "This resource allows \(allow.joined(separator: ", ")) only."
        case .parameter(let error): error.description
        case .refused(let failure): failure.detail
        case .unauthorized(let detail), .forbidden(let detail), .unsupportedMediaType(let detail), .busy(let detail),
            .noCatalogFolder(let detail), .invalidCatalogs(let detail, _, _), .conflict(_, let detail): detail
        case .queue(let error): error.description
        case .internal: "The server could not answer this request. It has been logged."
        }
    }

    public var problem: Problem {
        var problem = Problem(type: "urn:alertd:problem:\(code)", title: title, status: status, detail: description)
        switch reason {
        case .parameter(let error):
            problem.parameter = error.parameter
            problem.expected = error.expectedType?.rawValue
        case .invalidSpec(let errors, let warnings):
            problem.errors = errors
            problem.warnings = warnings
        case .invalidRequest(let errors):
            problem.errors = errors
        case .queue(let error):
            problem.reason = error.storeFailure?.rawValue
        case .specTooLarge(let issue):
            problem.errors = [issue]
        case .invalidCatalogs(_, let errors, let warnings):
            problem.catalogErrors = errors.map(CatalogIssue.init)
            problem.catalogWarnings = warnings.map(CatalogIssue.init)
        default: break
        }
        return problem
    }

    public func response(for request: Request) throws -> HTTPResponse {
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        if case .methodNotAllowed(let allow) = reason { headers.set("Allow", allow.joined(separator: ", ")) }
        if case .unauthorized = reason { headers.set("WWW-Authenticate", "Bearer") }
        // A store that may recover is worth asking again in a second; a replaced file is not.
        if case .queue(let error) = reason, let failure = error.storeFailure, failure != .replaced {
            headers.set("Retry-After", "1")
        }
        if case .busy = reason { headers.set("Retry-After", "1") }
        return try JSONResponse(problem, status: status, headers: headers, contentType: "application/problem+json")
            .response(for: request)
    }
}

/// The problem+json body (RFC 9457), with alertd's extension members.
public struct Problem: Sendable, Codable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// For parameter problems: the parameter concerned and the type it must have.
    public var parameter: String?
    public var expected: String?
    /// For invalid specs: every rule broken, and what normalization would change.
    public var errors: [SpecIssue]?
    public var warnings: [SpecIssue]?
    /// For `store-unavailable`: why the store could not serve (`StoreFailure`: `disk-full`,
    /// `timeout`, …).
    public var reason: String?
    /// `invalid-catalogs`: every problem of the catalog files, and their warnings.
    public var catalogErrors: [CatalogIssue]?
    public var catalogWarnings: [CatalogIssue]?
}
