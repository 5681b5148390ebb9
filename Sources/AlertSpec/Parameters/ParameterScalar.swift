/// The Swift types an alert case may take as associated values, and how each is read from a
/// parameter value.
protocol ParameterScalar: Decodable {
    static var parameterType: ParameterType { get }
    /// A stand-in value, used when probing a case for its parameters.
    static var placeholder: Self { get }
    init?(parameter: ParameterValue)
}

extension String: ParameterScalar {
    static var parameterType: ParameterType { .string }
    static var placeholder: String { "" }
    init?(parameter: ParameterValue) {
        guard case .string(let value) = parameter else { return nil }
        self = value
    }
}

extension Bool: ParameterScalar {
    static var parameterType: ParameterType { .boolean }
    static var placeholder: Bool { false }
    init?(parameter: ParameterValue) {
        switch parameter {
        case .boolean(let value): self = value
        case .string("true"), .string("1"): self = true
        case .string("false"), .string("0"): self = false
        default: return nil
        }
    }
}

extension Double: ParameterScalar {
    static var parameterType: ParameterType { .number }
    static var placeholder: Double { 0 }
    init?(parameter: ParameterValue) {
        switch parameter {
        case .number(let value): self = value
        case .integer(let value): self = Double(value)
        case .string(let text):
            guard let value = Double(text), value.isFinite else { return nil }
            self = value
        default: return nil
        }
        guard isFinite else { return nil }
    }
}

extension Float: ParameterScalar {
    static var parameterType: ParameterType { .number }
    static var placeholder: Float { 0 }
    init?(parameter: ParameterValue) {
        guard let value = Double(parameter: parameter), Float(value).isFinite else { return nil }
        self = Float(value)
    }
}

/// Integers of every width read the same way: exact integers only, within the type's range.
protocol IntegerParameter: ParameterScalar, FixedWidthInteger {}

extension IntegerParameter {
    static var parameterType: ParameterType { .integer }
    static var placeholder: Self { 0 }
    init?(parameter: ParameterValue) {
        switch parameter {
        case .integer(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .number(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .string(let text):
            guard let exact = Self(text) else { return nil }
            self = exact
        case .boolean: return nil
        }
    }
}

extension Int: IntegerParameter {}
extension Int8: IntegerParameter {}
extension Int16: IntegerParameter {}
extension Int32: IntegerParameter {}
extension Int64: IntegerParameter {}
extension UInt: IntegerParameter {}
extension UInt8: IntegerParameter {}
extension UInt16: IntegerParameter {}
extension UInt32: IntegerParameter {}
extension UInt64: IntegerParameter {}
