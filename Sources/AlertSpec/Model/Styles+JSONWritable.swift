// The JSON writers of the shared visual tokens, member for member as their synthesized
// `Encodable` conformances (Styles.swift): declaration order, nil optionals left out.

extension Font: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("size", size)
        output.member("weight", weight.rawValue)
        output.memberIfPresent("family", family)
    }
}

extension TextStyle: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("font", font)
        output.member("color", color)
        output.member("alignment", alignment.rawValue)
    }
}

extension Offset: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("x", x)
        try output.member("y", y)
    }
}

extension AlertImage: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.memberIfPresent("asset", asset)
        output.memberIfPresent("url", url)
        output.memberIfPresent("tint", tint)
    }
}
