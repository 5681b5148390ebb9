extension ParameterValue {
    /// A JSON scalar as a parameter, with the cases `init(from:)` gives: a string, a boolean, an
    /// integer (also a number with no fraction, `2.0`), else a number. Nil for null, arrays and
    /// objects.
    public init?(json: JSON) {
        switch json {
        case .string(let value): self = .string(value)
        case .bool(let value): self = .boolean(value)
        case .integer(let value): self = .integer(value)
        case .number(let value): self = Int(exactly: value).map(ParameterValue.integer) ?? .number(value)
        case .null, .array, .object: return nil
        }
    }
}
