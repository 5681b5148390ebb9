/// A value that writes its own JSON, member by member, without the `Encoder` protocol: what
/// `OrderedJSONEncoder` uses when a value has it, for the bytes its `Encodable` form would give
/// in a fraction of the time (no container boxes, generic metadata or coding paths).
///
/// The `Encodable` form stays the definition: a writer must give the same bytes, keys in the
/// same order, the same members left out. `JSONWritableTests` (every kind, every field set) and
/// `BuiltInSpecEncodingTests` (every built-in alert in every locale) encode both ways and compare,
/// so keep a type's writer (`Type+JSONWritable.swift`) in step with its `encode(to:)`.
///
/// ```swift
/// extension Offset: JSONObjectWritable {
///     func writeJSONMembers(to output: inout JSONOutput) throws {
///         try output.member("x", x)
///         try output.member("y", y)
///     }
/// }
/// ```
public protocol JSONWritable {
    /// Appends the value's JSON to `output`. Throws for what JSON cannot hold (a non-finite number).
    func writeJSON(to output: inout JSONOutput) throws

    /// About how many bytes the value's JSON takes: `OrderedJSONEncoder` starts its output with
    /// that much room. 2 KiB unless a type says otherwise (a spec takes about 1.3).
    var jsonCapacity: Int { get }
}

extension JSONWritable {
    public var jsonCapacity: Int { 2048 }
}

/// A value whose JSON form is an object, whose members can also be written into an enclosing
/// object: how a spec's kind fields follow its envelope in one object.
public protocol JSONObjectWritable: JSONWritable {
    /// Appends the members, without the braces, through `JSONOutput.member`.
    func writeJSONMembers(to output: inout JSONOutput) throws
}

extension JSONObjectWritable {
    public func writeJSON(to output: inout JSONOutput) throws {
        output.beginObject()
        try writeJSONMembers(to: &output)
        output.endObject()
    }
}

/// An array of writable values is a JSON array of them.
extension Array: JSONWritable where Element: JSONWritable {
    public func writeJSON(to output: inout JSONOutput) throws {
        output.beginArray()
        for element in self {
            output.nextElement()
            try element.writeJSON(to: &output)
        }
        output.endArray()
    }
}
