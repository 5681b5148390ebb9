import AlertSpec
import Foundation

/// A parsed JSON or YAML document in the JSON data model. Unlike `JSONSerialization`'s `Any`
/// it is `Sendable` (a file catalog keeps its templates) and tells booleans from numbers on
/// every platform.
enum JSONTree: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    subscript(key: String) -> JSONTree? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    var array: [JSONTree]? {
        if case .array(let items) = self { items } else { nil }
    }

    var object: [String: JSONTree]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// What the value is, for messages: "a string", "an object", …
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as `JSONSerialization` writes it (`SpecReader.read(tree:)` takes this form).
    var foundation: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .integer(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let items): items.map(\.foundation)
        case .object(let members): members.mapValues(\.foundation)
        }
    }

    /// The same tree with every string value (not member names) passed through `transform`.
    func mapStrings(_ transform: (String) -> String) -> JSONTree {
        switch self {
        case .string(let value): .string(transform(value))
        case .array(let items): .array(items.map { $0.mapStrings(transform) })
        case .object(let members): .object(members.mapValues { $0.mapStrings(transform) })
        case .null, .bool, .integer, .number: self
        }
    }

    /// The tree with `transform` applied to every object, inner objects first.
    func mapObjects(_ transform: ([String: JSONTree]) -> [String: JSONTree]) -> JSONTree {
        switch self {
        case .array(let items): .array(items.map { $0.mapObjects(transform) })
        case .object(let members): .object(transform(members.mapValues { $0.mapObjects(transform) }))
        case .null, .bool, .integer, .number, .string: self
        }
    }

    /// Every string value of the tree, members in name order.
    var strings: [String] {
        switch self {
        case .string(let value): [value]
        case .array(let items): items.flatMap(\.strings)
        case .object(let members): members.keys.sorted().flatMap { members[$0]!.strings }
        case .null, .bool, .integer, .number: []
        }
    }
}

extension JSONTree: Decodable {
    /// Reads JSON strictly: `true` is a boolean, never the number 1.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let items = try? container.decode([JSONTree].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }
}

extension JSONTree {
    /// Converts what `Yams.load(yaml:)` returns; nil (with `problem` set to a pointer and a
    /// sentence) for a value JSON cannot hold.
    init?(yaml value: Any?, at pointer: String = "", problem: inout (pointer: String, message: String)?) {
        switch value {
        case nil, is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(value)
        case let value as Double:
            guard value.isFinite else {
                problem = (pointer, "\(value) is not a number JSON can hold.")
                return nil
            }
            self = .number(value)
        case let value as String: self = .string(value)
        case let items as [Any]:
            var converted: [JSONTree] = []
            for (index, item) in items.enumerated() {
                guard let tree = JSONTree(yaml: item, at: "\(pointer)/\(index)", problem: &problem) else { return nil }
                converted.append(tree)
            }
            self = .array(converted)
        case let members as [AnyHashable: Any]:
            var converted: [String: JSONTree] = [:]
            for (key, member) in members {
                guard let name = key.base as? String else {
                    problem = (pointer, "The member name \(key) is not a string.")
                    return nil
                }
                let at = pointer + "/" + JSONPointer.escape(name)
                guard let tree = JSONTree(yaml: member, at: at, problem: &problem) else { return nil }
                converted[name] = tree
            }
            self = .object(converted)
        default:
            problem = (pointer, "This YAML value (\(type(of: value!))) has no JSON form.")
            return nil
        }
    }
}

extension JSONTree {
    /// The value for messages: a string quoted, a number or boolean as written, else its type.
    var described: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .null, .array, .object: typeName
        }
    }
}
