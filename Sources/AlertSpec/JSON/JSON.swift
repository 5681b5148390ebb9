/// A JSON value, as `JSON(parsing:)` reads it from bytes: plain Swift, `Sendable`, and it tells
/// booleans from numbers on every platform (`true` is never `1`), which `JSONSerialization`'s
/// `NSNumber`s do not.
///
/// A number without a fraction or an exponent that fits `Int` is an `.integer`; every other
/// number is a `.number`. Readers that want an integer also take a `.number` with no fraction
/// (`2.0`), see ``integer``.
///
/// ```swift
/// let body = try JSON(parsing: Array(#"{"action": "open", "seconds": 2.0}"#.utf8))
/// body["action"]?.string   // "open"
/// body["seconds"]?.integer // 2
/// ```
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Member names are unique: the parser rejects a document that repeats one.
    case object([String: JSON])
}

extension JSON {
    /// The member `key` of an object; nil when absent or when this is not an object.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// An integer, or a number with no fraction that fits `Int` (`2.0`, `1e3`); never a boolean.
    public var integer: Int? {
        switch self {
        case .integer(let value): value
        case .number(let value): Int(exactly: value)
        default: nil
        }
    }

    /// Any number, integers included; never a boolean.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var array: [JSON]? {
        if case .array(let items) = self { items } else { nil }
    }

    public var object: [String: JSON]? {
        if case .object(let members) = self { members } else { nil }
    }
}
