/// Encodes `Encodable` values as compact JSON with object members in the order they were
/// encoded (Foundation's JSONEncoder on Linux orders them differently from run to run), so the
/// same spec always gives the same bytes, envelope first.
///
/// It writes as it goes, with no tree in between: a value must be written in order — a nested
/// container is finished once its parent writes again, and writing to it after that throws —
/// and a key given twice in one object is written twice. Every `Codable` type that encodes
/// member after member (all synthesized conformances, all of AlertSpec's) meets that.
///
/// ```swift
/// let bytes = try OrderedJSONEncoder().encode(spec)   // [UInt8], UTF-8
/// ```
public struct OrderedJSONEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONWriter()
        try writer.value(value, depth: 0, codingPath: { [] })
        writer.closeAll()
        if writer.outOfOrder {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "OrderedJSONEncoder writes in order: a container was used after its parent was finished."))
        }
        return writer.output
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

/// The output and the containers still open, innermost last. A container opened by the value at
/// depth `d` is `open[d]`; writing into it first closes every deeper one.
final class JSONWriter {
    struct Frame {
        var isObject: Bool
        var count = 0
        /// Who opened it: an encoder's id, so the same encoder asking again continues it.
        var owner: Int
    }

    var output: [UInt8] = []
    private(set) var open: [Frame] = []
    private var lastOwner = 0
    /// Set when a container was asked for after its parent was finished (the call cannot throw).
    private(set) var outOfOrder = false

    init() {
        output.reserveCapacity(1024)
    }

    func makeOwner() -> Int {
        lastOwner += 1
        return lastOwner
    }

    /// Writes `value` where a value is expected at `depth`: scalars at once, others through
    /// their `encode(to:)`. One that writes nothing is `{}`, as Foundation's encoder has it.
    func value<T: Encodable>(_ value: T, depth: Int, codingPath: () -> [any CodingKey]) throws {
        // Scalars by their static type: comparing metatypes is a pointer comparison, where a
        // dynamic cast took 2-3 % of a render; the bit cast is then to the value's own type.
        if T.self == String.self {
            JSONWriter.writeQuoted(unsafeBitCast(value, to: String.self), to: &output)
        } else if T.self == Int.self {
            write(unsafeBitCast(value, to: Int.self))
        } else if T.self == Bool.self {
            write(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            try write(unsafeBitCast(value, to: Double.self), codingPath)
        } else if T.self == Float.self {
            try write(Double(unsafeBitCast(value, to: Float.self)), codingPath)
        } else if T.self == EncodedJSON.self {
            output.append(contentsOf: unsafeBitCast(value, to: EncodedJSON.self).bytes)
        } else {
            let before = output.count
            try value.encode(to: StreamEncoder(writer: self, depth: depth, owner: makeOwner(), codingPath: codingPath()))
            closeDeeper(than: depth - 1)  // its own container too: the value is complete
            if output.count == before { output.append(contentsOf: "{}".utf8) }
        }
    }

    func write(_ bool: Bool) { output.append(contentsOf: (bool ? "true" : "false").utf8) }
    func write(_ int: Int) { output.append(contentsOf: String(int).utf8) }
    func writeNull() { output.append(contentsOf: "null".utf8) }

    func write(_ double: Double, _ codingPath: () -> [any CodingKey]) throws {
        guard double.isFinite else {
            throw EncodingError.invalidValue(
                double, .init(codingPath: codingPath(), debugDescription: "JSON has no form for \(double)"))
        }
        if double == double.rounded(), abs(double) < 1e15 {
            output.append(contentsOf: String(Int64(double)).utf8)
        } else {
            output.append(contentsOf: String(double).utf8)
        }
    }

    /// Opens an object or array for the value at `depth`, or finds it open already when the
    /// same encoder (`owner`) asks again.
    func openContainer(depth: Int, isObject: Bool, owner: Int) {
        closeDeeper(than: depth)
        if open.count == depth + 1 {
            if open[depth].owner == owner { return }
            closeDeeper(than: depth - 1)
        }
        if open.count != depth { outOfOrder = true }
        open.append(Frame(isObject: isObject, owner: owner))
        output.append(UInt8(ascii: isObject ? "{" : "["))
    }

    /// Readies the container at `depth` for its next member or element (the deeper ones closed,
    /// a comma after the first, the key of a member); throws when it was closed already.
    func nextEntry(depth: Int, owner: Int, key: String?, codingPath: () -> [any CodingKey]) throws {
        closeDeeper(than: depth)
        guard open.count == depth + 1, open[depth].owner == owner else {
            throw EncodingError.invalidValue(
                key ?? "", .init(codingPath: codingPath(), debugDescription: "OrderedJSONEncoder writes in order: this container was already finished."))
        }
        if open[depth].count > 0 { output.append(UInt8(ascii: ",")) }
        open[depth].count += 1
        if let key {
            JSONWriter.writeQuoted(key, to: &output)
            output.append(UInt8(ascii: ":"))
        }
    }

    /// Closes the containers of values deeper than `depth`.
    func closeDeeper(than depth: Int) {
        while open.count > depth + 1 {
            output.append(UInt8(ascii: open.removeLast().isObject ? "}" : "]"))
        }
    }

    func closeAll() { closeDeeper(than: -1) }

    /// Appends `string` as a JSON string literal: quotes, backslashes and control characters
    /// escaped, runs of bytes that need no escape copied whole.
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

/// The encoder of one value at one depth.
private struct StreamEncoder: Encoder {
    let writer: JSONWriter
    let depth: Int
    let owner: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.openContainer(depth: depth, isObject: true, owner: owner)
        return KeyedEncodingContainer(ObjectContainer<Key>(writer: writer, depth: depth, owner: owner, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.openContainer(depth: depth, isObject: false, owner: owner)
        return ArrayContainer(writer: writer, depth: depth, owner: owner, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(writer: writer, depth: depth, codingPath: codingPath)
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONWriter
    let depth: Int
    let owner: Int
    let codingPath: [any CodingKey]

    private func next(_ key: Key) throws {
        try writer.nextEntry(depth: depth, owner: owner, key: key.stringValue) { codingPath + [key] }
    }

    func encodeNil(forKey key: Key) throws {
        try next(key)
        writer.writeNull()
    }

    // The scalars specs are made of, without a cast or a coding path each.
    func encode(_ value: String, forKey key: Key) throws {
        try next(key)
        JSONWriter.writeQuoted(value, to: &writer.output)
    }

    func encode(_ value: Bool, forKey key: Key) throws {
        try next(key)
        writer.write(value)
    }

    func encode(_ value: Int, forKey key: Key) throws {
        try next(key)
        writer.write(value)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try next(key)
        try writer.value(value, depth: depth + 1) { codingPath + [key] }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder(key).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEncoder(key).unkeyedContainer()
    }

    func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    /// The encoder must encode a value (the key is already written).
    func superEncoder(forKey key: Key) -> any Encoder { nestedEncoder(key) }

    private func nestedEncoder(_ key: Key) -> StreamEncoder {
        // Not throwing by the protocol: a finished container is reported by the next write.
        try? next(key)
        return StreamEncoder(writer: writer, depth: depth + 1, owner: writer.makeOwner(), codingPath: codingPath + [key])
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let writer: JSONWriter
    let depth: Int
    let owner: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(writer: JSONWriter, depth: Int, owner: Int, codingPath: [any CodingKey]) {
        self.writer = writer
        self.depth = depth
        self.owner = owner
        self.codingPath = codingPath
    }

    private mutating func next() throws {
        let index = count
        try writer.nextEntry(depth: depth, owner: owner, key: nil) { [codingPath] in codingPath + [AnyCodingKey("\(index)")] }
        count += 1
    }

    mutating func encodeNil() throws {
        try next()
        writer.writeNull()
    }

    mutating func encode(_ value: String) throws {
        try next()
        JSONWriter.writeQuoted(value, to: &writer.output)
    }

    mutating func encode(_ value: Bool) throws {
        try next()
        writer.write(value)
    }

    mutating func encode(_ value: Int) throws {
        try next()
        writer.write(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try next()
        try writer.value(value, depth: depth + 1) { [codingPath] in codingPath + [AnyCodingKey("\(index)")] }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nestedEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nestedEncoder() }

    private mutating func nestedEncoder() -> StreamEncoder {
        try? next()
        return StreamEncoder(writer: writer, depth: depth + 1, owner: writer.makeOwner(), codingPath: codingPath)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let writer: JSONWriter
    let depth: Int
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { writer.writeNull() }
    mutating func encode(_ value: String) throws { JSONWriter.writeQuoted(value, to: &writer.output) }
    mutating func encode(_ value: Bool) throws { writer.write(value) }
    mutating func encode(_ value: Int) throws { writer.write(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try writer.value(value, depth: depth) { [codingPath] in codingPath }
    }
}
