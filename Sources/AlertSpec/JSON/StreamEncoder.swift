// The Encoder protocol over `JSONWriter`: an encoder per value, containers that write in place.

/// Where a value is: a chain of keys from it out to the root. Extending it is one small box,
/// where `codingPath + [key]` was two arrays and a copy of the path for every nested value;
/// the array is made only when asked for (an error, or an `encode(to:)` that reads it).
indirect enum CodingPath {
    case root
    case child(CodingPath, any CodingKey)

    func appending(_ key: any CodingKey) -> CodingPath { .child(self, key) }

    var keys: [any CodingKey] {
        guard case .child(let parent, let key) = self else { return [] }
        return parent.keys + [key]
    }
}

/// The encoder of one value at one depth.
struct StreamEncoder: Encoder {
    let writer: JSONWriter
    let depth: Int
    let owner: Int
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.openContainer(depth: depth, isObject: true, owner: owner)
        return KeyedEncodingContainer(ObjectContainer<Key>(writer: writer, depth: depth, owner: owner, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.openContainer(depth: depth, isObject: false, owner: owner)
        return ArrayContainer(writer: writer, depth: depth, owner: owner, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(writer: writer, depth: depth, path: path)
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONWriter
    let depth: Int
    let owner: Int
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }

    private func next(_ key: Key) throws {
        try writer.nextEntry(depth: depth, owner: owner, key: key.stringValue) { path.appending(key).keys }
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
        try writer.value(value, depth: depth + 1) { path.appending(key) }
    }

    // An absent optional is left out, or written as null when the writer is asked to.
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if writer.writesAbsentOptionals { try encodeNil(forKey: key) }
    }

    func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if writer.writesAbsentOptionals { try encodeNil(forKey: key) }
    }

    func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if writer.writesAbsentOptionals { try encodeNil(forKey: key) }
    }

    func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if writer.writesAbsentOptionals { try encodeNil(forKey: key) }
    }

    func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if writer.writesAbsentOptionals { try encodeNil(forKey: key) }
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
        return StreamEncoder(writer: writer, depth: depth + 1, owner: writer.makeOwner(), path: path.appending(key))
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let writer: JSONWriter
    let depth: Int
    let owner: Int
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }
    private(set) var count = 0

    init(writer: JSONWriter, depth: Int, owner: Int, path: CodingPath) {
        self.writer = writer
        self.depth = depth
        self.owner = owner
        self.path = path
    }

    /// The path of the element at `index`.
    private func path(at index: Int) -> CodingPath { path.appending(AnyCodingKey("\(index)")) }

    private mutating func next() throws {
        let index = count
        try writer.nextEntry(depth: depth, owner: owner, key: nil) { [self] in path(at: index).keys }
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
        try writer.value(value, depth: depth + 1) { [self] in path(at: index) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nestedEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nestedEncoder() }

    private mutating func nestedEncoder() -> StreamEncoder {
        let index = count
        try? next()
        return StreamEncoder(writer: writer, depth: depth + 1, owner: writer.makeOwner(), path: path(at: index))
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let writer: JSONWriter
    let depth: Int
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }

    mutating func encodeNil() throws { writer.writeNull() }
    mutating func encode(_ value: String) throws { JSONWriter.writeQuoted(value, to: &writer.output) }
    mutating func encode(_ value: Bool) throws { writer.write(value) }
    mutating func encode(_ value: Int) throws { writer.write(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try writer.value(value, depth: depth) { [path] in path }
    }
}
