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
        try root.store(value, codingPath: { [] })
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
/// Scalars are kept as they are and written once, at the end, straight into the output.
final class JSONNode {
    enum Content {
        case empty
        case null
        case string(String)
        case integer(Int)
        case bool(Bool)
        /// Bytes already JSON: an `EncodedJSON`, a number.
        case literal([UInt8])
        case object([(key: String, node: JSONNode)])
        case array([JSONNode])
    }

    var content: Content = .empty

    init() {}

    init(_ content: Content) {
        self.content = content
    }

    /// Stores `value`, with fast paths for the scalars specs are made of. `codingPath` is made
    /// only when it is needed: for a value that encodes itself, or for an error.
    func store<T: Encodable>(_ value: T, codingPath: () -> [any CodingKey]) throws {
        switch value {
        case let string as String: content = .string(string)
        case let encoded as EncodedJSON: content = .literal(encoded.bytes)
        case let bool as Bool: content = .bool(bool)
        case let int as Int: content = .integer(int)
        case let double as Double: content = .literal(try JSONNode.number(double, codingPath))
        case let float as Float: content = .literal(try JSONNode.number(Double(float), codingPath))
        default:
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath()))
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

    var count: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    func write(to output: inout [UInt8]) {
        switch content {
        case .empty, .null: output.append(contentsOf: "null".utf8)
        case .string(let string): JSONNode.writeQuoted(string, to: &output)
        case .integer(let int): output.append(contentsOf: String(int).utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .literal(let bytes): output.append(contentsOf: bytes)
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for index in members.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONNode.writeQuoted(members[index].key, to: &output)
                output.append(UInt8(ascii: ":"))
                members[index].node.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for index in elements.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                elements[index].write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
    }

    static func number(_ value: Double, _ codingPath: () -> [any CodingKey]) throws -> [UInt8] {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath(), debugDescription: "JSON has no form for \(value)"))
        }
        if value == value.rounded(), abs(value) < 1e15 { return Array(String(Int64(value)).utf8) }
        return Array(String(value).utf8)
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as is.
    static func quoted(_ string: String) -> [UInt8] {
        var output: [UInt8] = []
        writeQuoted(string, to: &output)
        return output
    }

    /// Appends `string` as a JSON string literal: runs of bytes that need no escape are copied
    /// whole.
    static func writeQuoted(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            output.reserveCapacity(output.count + bytes.count + 2)
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            output.append(UInt8(ascii: "\""))
        }
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

    func encodeNil(forKey key: Key) throws { node.set(key.stringValue, JSONNode(.null)) }

    // The scalars specs are made of, without a cast or a coding path each.
    func encode(_ value: String, forKey key: Key) throws { node.set(key.stringValue, JSONNode(.string(value))) }
    func encode(_ value: Bool, forKey key: Key) throws { node.set(key.stringValue, JSONNode(.bool(value))) }
    func encode(_ value: Int, forKey key: Key) throws { node.set(key.stringValue, JSONNode(.integer(value))) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = JSONNode()
        try child.store(value, codingPath: { codingPath + [key] })
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
    var count: Int { node.count }

    mutating func encodeNil() throws { node.append(JSONNode(.null)) }

    mutating func encode(_ value: String) throws { node.append(JSONNode(.string(value))) }
    mutating func encode(_ value: Bool) throws { node.append(JSONNode(.bool(value))) }
    mutating func encode(_ value: Int) throws { node.append(JSONNode(.integer(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = JSONNode()
        let index = count
        try child.store(value, codingPath: { [codingPath] in codingPath + [AnyCodingKey("\(index)")] })
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

    mutating func encodeNil() throws { node.content = .null }
    mutating func encode(_ value: String) throws { node.content = .string(value) }
    mutating func encode(_ value: Bool) throws { node.content = .bool(value) }
    mutating func encode(_ value: Int) throws { node.content = .integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: { [codingPath] in codingPath }) }
}
