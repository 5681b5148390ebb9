import AlertSpec
import Foundation

/// A parsed JSON or YAML document in the JSON data model: AlertSpec's `JSON`, which a file
/// catalog keeps (it is `Sendable`) and which tells booleans from numbers on every platform.
/// The name stays for what this module adds to it.
typealias JSONTree = JSON

extension JSONTree {
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
