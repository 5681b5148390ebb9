/// A parsed value written back as compact JSON, with `JSONOutput`'s number and string forms:
/// how `SpecReader` hands a parsed spec to `JSONDecoder` and measures it, without Foundation's
/// `JSONSerialization` (most of a large spec's validation went there). Members come in the
/// dictionary's order, which says nothing about the order they were sent in.
extension JSON: JSONWritable {
    public func writeJSON(to output: inout JSONOutput) throws {
        switch self {
        case .null: output.writeNull()
        case .bool(let value): output.write(value)
        case .integer(let value): output.write(value)
        case .number(let value): try output.write(value)
        case .string(let value): output.write(value)
        case .array(let items):
            output.beginArray()
            for item in items {
                output.nextElement()
                try item.writeJSON(to: &output)
            }
            output.endArray()
        case .object(let members):
            output.beginObject()
            for (key, value) in members {
                output.key(key)
                try value.writeJSON(to: &output)
            }
            output.endObject()
        }
    }
}
