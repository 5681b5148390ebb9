/// Encodes `Encodable` values as compact JSON with object members in the order they were
/// encoded (Foundation's JSONEncoder on Linux orders them differently from run to run), so the
/// same spec always gives the same bytes, envelope first.
///
/// ```swift
/// let bytes = try OrderedJSONEncoder().encode(spec)   // [UInt8], UTF-8
/// ```
public struct OrderedJSONEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = JSONNode()
        try root.store(value, codingPath: [])
        var output: [UInt8] = []
        output.reserveCapacity(512)
        root.write(to: &output)
        return output
    }
}

/// A value this encoder already wrote, embedded as is in a larger value: how a rendering that
/// was encoded once and kept is sent inside other answers without encoding it again. Only
/// `OrderedJSONEncoder` can write it; other encoders refuse it.
///
/// ```swift
/// let spec = EncodedJSON(try OrderedJSONEncoder().encode(alertSpec))
/// let bytes = try OrderedJSONEncoder().encode(["spec": spec])   // {"spec":{…}}
/// ```
public struct EncodedJSON: Encodable, Sendable, Hashable {
    /// UTF-8 JSON, as `OrderedJSONEncoder.encode` returned it.
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self, .init(codingPath: encoder.codingPath, debugDescription: "EncodedJSON is written by OrderedJSONEncoder only."))
    }
}

/// One value being built. Containers share nodes by reference, as the Encoder protocol expects.
final class JSONNode {
    enum Content {
        case empty
        case literal([UInt8])
        case object([(key: String, node: JSONNode)])
        case array([JSONNode])
    }

    var content: Content = .empty

    /// Stores `value`, with fast paths for the scalars specs are made of.
    func store<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        switch value {
        case let string as String: content = .literal(JSONNode.quoted(string))
        case let encoded as EncodedJSON: content = .literal(encoded.bytes)
        case let bool as Bool: content = .literal(Array((bool ? "true" : "false").utf8))
        case let int as Int: content = .literal(Array(String(int).utf8))
        case let double as Double: content = .literal(try JSONNode.number(double, codingPath))
        case let float as Float: content = .literal(try JSONNode.number(Double(float), codingPath))
        default:
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
            if case .empty = content { content = .object([]) }
        }
    }

    func set(_ key: String, _ child: JSONNode) {
        guard case .object(var members) = content else { return }
        content = .empty  // release the array so the append below does not copy it
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].node = child
        } else {
            members.append((key: key, node: child))
        }
        content = .object(members)
    }

    func append(_ child: JSONNode) {
        guard case .array(var elements) = content else { return }
        content = .empty
        elements.append(child)
        content = .array(elements)
    }

    func write(to output: inout [UInt8]) {
        switch content {
        case .empty: output.append(contentsOf: "null".utf8)
        case .literal(let bytes): output.append(contentsOf: bytes)
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: JSONNode.quoted(member.key))
                output.append(UInt8(ascii: ":"))
                member.node.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
    }

    static func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> [UInt8] {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "JSON has no form for \(value)"))
        }
        if value == value.rounded(), abs(value) < 1e15 { return Array(String(Int64(value)).utf8) }
        return Array(String(value).utf8)
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as is.
    static func quoted(_ string: String) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        output.reserveCapacity(string.utf8.count + 2)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
        return output
    }
}

private struct NodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(ObjectContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return ArrayContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) throws { node.set(key.stringValue, JSONNode()) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = JSONNode()
        try child.store(value, codingPath: codingPath + [key])
        node.set(key.stringValue, child)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONNode()
        node.set(key.stringValue, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONNode()
        node.set(key.stringValue, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    func superEncoder(forKey key: Key) -> any Encoder {
        let child = JSONNode()
        node.set(key.stringValue, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    mutating func encodeNil() throws { node.append(JSONNode()) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = JSONNode()
        try child.store(value, codingPath: codingPath + [AnyCodingKey("\(count)")])
        node.append(child)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONNode()
        node.append(child)
        return NodeEncoder(node: child, codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = JSONNode()
        node.append(child)
        return NodeEncoder(node: child, codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONNode()
        node.append(child)
        return NodeEncoder(node: child, codingPath: codingPath)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .literal(Array("null".utf8)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }
}
