/// Encodes `Encodable` values as compact JSON with object members in the order they were
/// encoded (Foundation's JSONEncoder on Linux orders them differently from run to run), so the
/// same spec always gives the same bytes, envelope first.
///
/// A value that is `JSONWritable` (every spec type) writes itself, in the same bytes; that is
/// several times faster than the `Encoder` protocol, and a render's encoding is on every cache
/// miss. Any other value is streamed through its `encode(to:)`.
///
/// The streaming path writes as it goes, with no tree in between: a value must be written in
/// order — a nested container is finished once its parent writes again, and writing to it after
/// that throws — and a key given twice in one object is written twice. Every `Codable` type
/// that encodes member after member (all synthesized conformances, all of AlertSpec's) meets that.
///
/// ```swift
/// let bytes = try OrderedJSONEncoder().encode(spec)   // [UInt8], UTF-8
/// ```
public struct OrderedJSONEncoder: Sendable {
    /// Writes an optional member that has no value as `null` instead of leaving it out: the
    /// shape of every member a value's type knows, which `SpecReader` compares a draft against.
    public var writesAbsentOptionals = false

    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let writable = value as? any JSONWritable { return try write(writable, else: value) }
        return try encodeStreaming(value)
    }

    /// The same, for a value known to be writable where it is called: no dynamic cast.
    public func encode<T: Encodable & JSONWritable>(_ value: T) throws -> [UInt8] {
        try write(value, else: value)
    }

    /// `writable`'s bytes; when its writer throws (a non-finite number), `value` streamed, for the
    /// error with its coding path, which the writer does not keep.
    private func write(_ writable: some JSONWritable, else value: some Encodable) throws -> [UInt8] {
        // Room for the whole value at once: growing the array on the way copies what was written.
        var output = JSONOutput(capacity: writable.jsonCapacity)
        output.writesAbsentOptionals = writesAbsentOptionals
        do {
            try writable.writeJSON(to: &output)
        } catch {
            return try encodeStreaming(value)
        }
        return output.bytes
    }

    /// `value` through its `encode(to:)`, writable or not: the definition a writer must match.
    func encodeStreaming<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONWriter(writesAbsentOptionals: writesAbsentOptionals)
        try writer.value(value, depth: 0) { .root }
        writer.closeAll()
        if writer.outOfOrder {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "OrderedJSONEncoder writes in order: a container was used after its parent was finished."))
        }
        return writer.output.array
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
public struct EncodedJSON: Encodable, JSONWritable, Sendable, Hashable {
    /// UTF-8 JSON, as `OrderedJSONEncoder.encode` returned it.
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self, .init(codingPath: encoder.codingPath, debugDescription: "EncodedJSON is written by OrderedJSONEncoder only."))
    }

    public func writeJSON(to output: inout JSONOutput) { output.write(self) }
    public var jsonCapacity: Int { bytes.count }
}
