/// One problem with a spec: where (a JSON pointer into the spec), what (a stable code) and a
/// sentence for people.
public struct SpecIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    public var pointer: String
    public var code: String
    public var message: String

    public init(pointer: String, code: String, message: String) {
        self.pointer = pointer
        self.code = code
        self.message = message
    }

    public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message) [\(code)]" }
}

/// What validation found: the normalized draft, the errors (none when valid) and warnings about
/// what normalization changed.
public struct SpecValidation: Sendable, Equatable {
    public var draft: SpecDraft
    public var errors: [SpecIssue]
    public var warnings: [SpecIssue]

    public var isValid: Bool { errors.isEmpty }
}

/// Looks up the alerts that `next` actions name.
public protocol AlertDirectory: Sendable {
    /// Nil when `alert` (`catalog/type`) exists and `parameters` build it; else the problem.
    func problem(alert: String, parameters: [String: ParameterValue]) -> (code: String, message: String)?
}

/// A spec that breaks rules, with every problem found.
public struct InvalidSpec: Error, Sendable, Equatable, CustomStringConvertible {
    public var issues: [SpecIssue]

    public init(_ issues: [SpecIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "; ") }
}

extension SpecValidator {
    /// The normalized draft, or `InvalidSpec` with every error.
    public func validated(_ draft: SpecDraft) throws -> SpecDraft {
        let result = validate(draft)
        guard result.isValid else { throw InvalidSpec(result.errors) }
        return result.draft
    }
}

/// Member for member as the synthesized `encode(to:)`: a validate's warnings are written with
/// its spec, without the `Encoder` protocol.
extension SpecIssue: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("pointer", pointer)
        output.member("code", code)
        output.member("message", message)
    }
}
