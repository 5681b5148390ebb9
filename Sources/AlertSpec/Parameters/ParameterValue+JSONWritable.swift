/// A parameter's value is its JSON scalar, as its `encode(to:)` writes it.
extension ParameterValue: JSONWritable {
    public func writeJSON(to output: inout JSONOutput) throws {
        switch self {
        case .integer(let value): output.write(value)
        case .number(let value): try output.write(value)
        case .string(let value): output.write(value)
        case .boolean(let value): output.write(value)
        }
    }
}
