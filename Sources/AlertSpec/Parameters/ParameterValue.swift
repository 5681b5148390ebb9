/// A parameter's value: one JSON scalar. Query items arrive as `.string` and are converted to
/// the declared type when a case is built.
public enum ParameterValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case integer(Int)
    case number(Double)
    case string(String)
    case boolean(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        }
    }

    /// The value as text, as it would be written in a query item.
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value): value
        case .boolean(let value): String(value)
        }
    }
}

/// The types a parameter can have.
public enum ParameterType: String, Sendable, Codable {
    case integer, number, string, boolean
}

/// One parameter of an alert type, as catalog listings describe it.
public struct ParameterInfo: Sendable, Equatable, Codable {
    public var name: String
    public var type: ParameterType
    public var required: Bool

    public init(name: String, type: ParameterType, required: Bool) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// Why parameters could not build an alert. Each names the parameter concerned.
public struct ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: Equatable {
        case missing(ParameterType)
        case mistyped(expected: ParameterType, value: String)
        case unknown
        case unsupported(String)
    }

    private let reason: Reason
    /// The parameter concerned.
    public let parameter: String

    /// A required parameter was not given. Public so that catalogs outside this module (file
    /// catalogs) report parameters exactly as enum catalogs do.
    public static func missing(_ name: String, _ type: ParameterType) -> Self { .init(reason: .missing(type), parameter: name) }
    public static func mistyped(_ name: String, expected: ParameterType, value: String) -> Self {
        .init(reason: .mistyped(expected: expected, value: value), parameter: name)
    }
    /// A parameter the alert does not take.
    public static func unknown(_ name: String) -> Self { .init(reason: .unknown, parameter: name) }
    static func unsupported(_ name: String, _ type: String) -> Self { .init(reason: .unsupported(type), parameter: name) }

    /// A stable machine-readable code.
    public var code: String {
        switch reason {
        case .missing: "missing-parameter"
        case .mistyped: "invalid-parameter"
        case .unknown: "unknown-parameter"
        case .unsupported: "unsupported-parameter-type"
        }
    }

    /// The type the alert expects for this parameter, when known.
    public var expectedType: ParameterType? {
        switch reason {
        case .missing(let type), .mistyped(let type, _): type
        case .unknown, .unsupported: nil
        }
    }

    public var description: String {
        switch reason {
        case .missing(let type): "The parameter \"\(parameter)\" (\(type.rawValue)) is required."
        case .mistyped(let type, let value):
            "The parameter \"\(parameter)\" must be \(type.article) \(type.rawValue), not \"\(value)\"."
        case .unknown: "This alert has no parameter \"\(parameter)\"."
        case .unsupported(let type):
            "The parameter \"\(parameter)\" has type \(type); parameters must be integers, numbers, strings or booleans."
        }
    }
}

extension ParameterType {
    fileprivate var article: String { self == .integer ? "an" : "a" }
}
