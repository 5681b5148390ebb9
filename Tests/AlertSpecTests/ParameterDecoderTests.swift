import Testing

@testable import AlertSpec

/// A tiny catalog enum covering every parameter shape the decoder supports.
private enum Sample: Codable, Equatable {
    case plain
    case typed(count: Int, ratio: Double, name: String, on: Bool)
    case optional(note: String?)
    case unlabelled(Int)
    case listed(items: [String])
}

@Suite("Building alert cases from parameters")
struct ParameterDecoderTests {
    @Test("query text converts to each declared type")
    func convertsQueryText() throws {
        // Given parameters as they arrive in a query string
        let parameters: [String: ParameterValue] = [
            "count": .string("3"), "ratio": .string("0.5"), "name": .string("Ana"), "on": .string("true"),
        ]
        // When the case is decoded
        let value = try ParameterDecoder.decode(Sample.self, type: "typed", parameters: parameters)
        // Then each value has its declared type
        #expect(value == .typed(count: 3, ratio: 0.5, name: "Ana", on: true))
    }

    @Test("JSON values convert too, an integral number included")
    func convertsJSONValues() throws {
        let parameters: [String: ParameterValue] = [
            "count": .number(3), "ratio": .integer(1), "name": .string("x"), "on": .boolean(false),
        ]
        let value = try ParameterDecoder.decode(Sample.self, type: "typed", parameters: parameters)
        #expect(value == .typed(count: 3, ratio: 1, name: "x", on: false))
    }

    @Test("a case without parameters decodes from nothing")
    func plainCase() throws {
        #expect(try ParameterDecoder.decode(Sample.self, type: "plain", parameters: [:]) == .plain)
    }

    @Test("a missing parameter is named with its type")
    func missing() {
        let error = #expect(throws: ParameterError.self) {
            try ParameterDecoder.decode(
                Sample.self, type: "typed", parameters: ["ratio": .string("1"), "name": .string("a"), "on": .string("1")])
        }
        #expect(error?.parameter == "count")
        #expect(error?.code == "missing-parameter")
        #expect(error?.expectedType == .integer)
    }

    @Test("a mistyped parameter is named with the expected type", arguments: [
        ("count", "abc", ParameterType.integer), ("count", "1.5", .integer), ("ratio", "nan", .number),
        ("on", "yes", .boolean), ("count", "99999999999999999999", .integer),
    ])
    func mistyped(name: String, text: String, expected: ParameterType) {
        var parameters: [String: ParameterValue] = [
            "count": .string("1"), "ratio": .string("1"), "name": .string("a"), "on": .string("true"),
        ]
        parameters[name] = .string(text)
        let error = #expect(throws: ParameterError.self) {
            try ParameterDecoder.decode(Sample.self, type: "typed", parameters: parameters)
        }
        #expect(error?.parameter == name)
        #expect(error?.code == "invalid-parameter")
        #expect(error?.expectedType == expected)
        #expect(error?.description.contains(text) == true)
    }

    @Test("a parameter the case does not take is refused")
    func unknown() {
        let error = #expect(throws: ParameterError.self) {
            try ParameterDecoder.decode(Sample.self, type: "plain", parameters: ["cout": .string("3")])
        }
        #expect(error?.parameter == "cout")
        #expect(error?.code == "unknown-parameter")
    }

    @Test("optional parameters may be left out")
    func optional() throws {
        #expect(try ParameterDecoder.decode(Sample.self, type: "optional", parameters: [:]) == .optional(note: nil))
        #expect(
            try ParameterDecoder.decode(Sample.self, type: "optional", parameters: ["note": .string("hi")])
                == .optional(note: "hi"))
    }

    @Test("probing reads a case's parameters off its declaration")
    func probe() throws {
        #expect(try ParameterDecoder.parameters(of: Sample.self, type: "plain") == [])
        #expect(
            try ParameterDecoder.parameters(of: Sample.self, type: "typed") == [
                ParameterInfo(name: "count", type: .integer, required: true),
                ParameterInfo(name: "ratio", type: .number, required: true),
                ParameterInfo(name: "name", type: .string, required: true),
                ParameterInfo(name: "on", type: .boolean, required: true),
            ])
        #expect(
            try ParameterDecoder.parameters(of: Sample.self, type: "optional") == [
                ParameterInfo(name: "note", type: .string, required: false)
            ])
    }

    @Test("a list parameter is refused as unsupported")
    func unsupported() {
        let error = #expect(throws: ParameterError.self) {
            try ParameterDecoder.parameters(of: Sample.self, type: "listed")
        }
        #expect(error?.code == "unsupported-parameter-type")
        #expect(error?.parameter == "items")
    }
}
