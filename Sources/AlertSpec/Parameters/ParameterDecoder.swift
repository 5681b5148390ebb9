/// Builds an alert case from its type name and parameters, through the enum's synthesized
/// `Decodable` conformance: `{"newMessages": {"count": 3, "sender": "Ana"}}` is what the
/// synthesized initializer reads, and this decoder presents the parameters in that shape.
///
/// ```swift
/// let alert = try ParameterDecoder.decode(AppAlert.self, type: "newMessages",
///                                         parameters: ["count": .string("3"), "sender": .string("Ana")])
/// ```
///
/// Every error names the parameter: a missing one, or one whose text is not of the declared
/// type. Probing (`parameters(of:type:)`) runs the same initializer with stand-in values and
/// records what it asks for, so a case's parameter list is read off its declaration.
public enum ParameterDecoder {
    /// Decodes case `type` of `Target` from `parameters`. Parameters the case does not take are
    /// refused, so a misspelt name is reported rather than ignored.
    public static func decode<Target: Decodable>(
        _: Target.Type, type: String, parameters: [String: ParameterValue]
    ) throws -> Target {
        let recorder = Recorder(probing: false)
        let value = try Target(from: CaseDecoder(type: type, values: parameters, recorder: recorder))
        // A case asks for a few names: comparing them beats hashing, and sorting is for the error.
        if !parameters.keys.allSatisfy(recorder.asked.contains),
            let unknown = parameters.keys.sorted().first(where: { !recorder.asked.contains($0) })
        {
            throw ParameterError.unknown(unknown)
        }
        return value
    }

    /// The parameters case `type` of `Target` takes, in declaration order.
    public static func parameters<Target: Decodable>(of _: Target.Type, type: String) throws -> [ParameterInfo] {
        let recorder = Recorder(probing: true)
        _ = try Target(from: CaseDecoder(type: type, values: [:], recorder: recorder))
        return recorder.infos
    }

    /// What the decoding asked for. One decoding uses it on one thread.
    final class Recorder {
        let probing: Bool
        var infos: [ParameterInfo] = []
        /// Every name asked for, in order: as many as the case has parameters.
        var asked: [String] = []
        init(probing: Bool) { self.probing = probing }

        func note(_ name: String, _ type: ParameterType, required: Bool) {
            asked.append(name)
            if probing { infos.append(ParameterInfo(name: name, type: type, required: required)) }
        }
    }
}

/// The top level: one key, the case's name.
private struct CaseDecoder: Decoder {
    let type: String
    let values: [String: ParameterValue]
    let recorder: ParameterDecoder.Recorder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CaseContainer<Key>(decoder: self, allKeys: Key(stringValue: type).map { [$0] } ?? []))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw unsupported }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw unsupported }

    var unsupported: ParameterError { .unsupported(type, "not an enum with cases") }
}

private struct CaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: CaseDecoder
    /// The case's key, made once: the synthesized initializer asks for it twice.
    let allKeys: [Key]
    var codingPath: [any CodingKey] { [] }
    func contains(_ key: Key) -> Bool { key.stringValue == decoder.type }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T { throw decoder.unsupported }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy _: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(FieldContainer<NestedKey>(values: decoder.values, recorder: decoder.recorder))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw decoder.unsupported }
    func superDecoder() throws -> any Decoder { throw decoder.unsupported }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.unsupported }
}

/// The case's associated values, one key each.
private struct FieldContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let values: [String: ParameterValue]
    let recorder: ParameterDecoder.Recorder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { values.keys.compactMap(Key.init(stringValue:)) }
    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { values[key.stringValue] == nil }

    /// A `T` known only as `Decodable`: a cast finds whether it is a parameter type.
    private func scalar<T>(_: T.Type, _ key: Key, required: Bool) throws -> T? {
        guard let scalarType = T.self as? any ParameterScalar.Type else {
            throw ParameterError.unsupported(key.stringValue, String(describing: T.self))
        }
        return try scalar(scalarType, key, required: required).map { $0 as! T }
    }

    /// The value of `key` read as `T`. The concrete overloads below call this with `T` known,
    /// so reading a parameter casts nothing.
    private func scalar<T: ParameterScalar>(_: T.Type, _ key: Key, required: Bool) throws -> T? {
        let name = key.stringValue
        recorder.note(name, T.parameterType, required: required)
        if recorder.probing { return required ? T.placeholder : nil }
        guard let raw = values[name] else {
            if required { throw ParameterError.missing(name, T.parameterType) }
            return nil
        }
        guard let value = T(parameter: raw) else {
            throw ParameterError.mistyped(name, expected: T.parameterType, value: raw.description)
        }
        return value
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try scalar(type, key, required: true)!
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try scalar(type, key, required: false)
    }

    // The synthesized initializer calls these concrete overloads; route them all through `scalar`.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key, required: true)! }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key, required: true)! }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key, required: true)! }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key, required: true)! }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key, required: true)! }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key, required: true)! }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key, required: true)! }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key, required: true)! }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key, required: true)! }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key, required: true)! }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key, required: true)! }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key, required: true)! }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key, required: true)! }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key, required: true)! }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalar(type, key, required: false) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try scalar(type, key, required: false) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try scalar(type, key, required: false) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try scalar(type, key, required: false) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalar(type, key, required: false) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try scalar(type, key, required: false) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy _: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ParameterError.unsupported(key.stringValue, "a nested structure")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ParameterError.unsupported(key.stringValue, "a list")
    }

    func superDecoder() throws -> any Decoder { throw ParameterError.unsupported("super", "a superclass") }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw ParameterError.unsupported(key.stringValue, "a superclass")
    }
}
