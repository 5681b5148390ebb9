import Testing

@testable import AlertSpec

/// `JSON(parsing:)` on documents written by hand: what it accepts, how it reads numbers and
/// escapes, and a table of what RFC 8259 does not allow.
@Suite("Parsing JSON strictly")
struct JSONParserTests {
    private static func parse(_ text: String) throws -> JSON { try JSON(parsing: Array(text.utf8)) }

    @Test("every kind of value reads as its case", arguments: [
        ("null", JSON.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .integer(0)),
        ("-12", .integer(-12)),
        ("1.5", .number(1.5)),
        ("-2.5e-3", .number(-0.0025)),
        ("1E2", .number(100)),
        ("2.0", .number(2)),
        (#""""#, .string("")),
        (#""Ana""#, .string("Ana")),
        (#""Zoë 🙂""#, .string("Zoë 🙂")),
        ("[]", .array([])),
        ("[1, \"a\", null, [true]]", .array([.integer(1), .string("a"), .null, .array([.bool(true)])])),
        ("{}", .object([:])),
        (#"{"a": {"b": [1.5, false]}, "c": ""}"#, .object(["a": .object(["b": .array([.number(1.5), .bool(false)])]), "c": .string("")])),
        (" \t\r\n{ \"a\" : 1 }\n ", .object(["a": .integer(1)])),
    ])
    func valid(text: String, expected: JSON) throws {
        #expect(try Self.parse(text) == expected)
    }

    @Test("integers to the edges of Int; past them, numbers", arguments: [
        ("9223372036854775807", JSON.integer(.max)),
        ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)),
        // Int.min - 1 has no Double of its own: it reads as the nearest, -2^63.
        ("-9223372036854775809", .number(-0x1p63)),
        ("18446744073709551616", .number(18_446_744_073_709_551_616)),
        ("1180591620717411303424", .number(1_180_591_620_717_411_303_424)),
        ("1e308", .number(1e308)),
        ("1e-400", .number(0)),
    ])
    func integerEdges(text: String, expected: JSON) throws {
        #expect(try Self.parse(text) == expected)
    }

    @Test("-0 is the integer 0; -0.0 keeps its sign")
    func negativeZero() throws {
        #expect(try Self.parse("-0") == .integer(0))
        let number = try #require(try Self.parse("-0.0").number)
        #expect(number == 0 && number.sign == .minus)
    }

    @Test("an integer is wanted: 2.0 and 1e3 count, 2.5, 2^63 and booleans do not")
    func integerReads() throws {
        #expect(try Self.parse("2.0").integer == 2)
        #expect(try Self.parse("1e3").integer == 1000)
        #expect(try Self.parse("2.5").integer == nil)
        #expect(try Self.parse("9223372036854775808").integer == nil)
        #expect(try Self.parse("true").integer == nil)
        #expect(try Self.parse("true").number == nil)
        #expect(try Self.parse("1").bool == nil)
        #expect(try Self.parse("7").number == 7)
    }

    @Test("escapes, surrogate pairs among them, read as the characters they stand for", arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""caf\u00e9 \u00E9""#, "café é"),
        (#""\ud83d\ude00""#, "😀"),
        (#""a\uD834\uDD1Eb""#, "a𝄞b"),
        (#""\u0000""#, "\u{0}"),
        (#""\uFFFF""#, "\u{FFFF}"),
        (#""é\n🙂""#, "é\n🙂"),
    ])
    func escapes(text: String, expected: String) throws {
        #expect(try Self.parse(text) == .string(expected))
    }

    @Test("what RFC 8259 does not allow is refused", arguments: [
        "", " ", "[1,]", #"{"a":1,}"#, "[,1]", "// c\n1", "/* c */ 1", "1 // c", "NaN", "Infinity", "-Infinity", "nan",
        "01", "-01", "00", "1.", ".5", "1e", "1e+", "1.e3", "+1", "-", "0x10", "1_000", "1e400", "-1e400",
        #""\uD800""#, #""\uDC00""#, #""\uD800\u0041""#, #""\uD800x""#, #""\uDBFF\uD800""#,
        "\"a\tb\"", "\"a\nb\"", "\"\u{1}\"", #""abc"#, #""\x""#, #""\u12""#, #""\u12G4""#, #""\'""#, "'a'",
        "[1 2]", #"{"a" 1}"#, "{a:1}", #"{"a":}"#, #"{"a"}"#, "{1:1}", "1 2", "tru", "nul", "True", "NULL",
        "[", "]", "{", #"{"a":1}}"#, "[1]]", "\u{FEFF}{}", "\u{A0}1", "\u{B}1", "\u{C}1",
    ])
    func invalid(text: String) {
        #expect(throws: JSON.ParseError.self) { try Self.parse(text) }
    }

    @Test("invalid UTF-8 in a string is refused", arguments: [
        [0xFF], [0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3, 0x28], [0x5C, 0x6E, 0xFF],
    ] as [[UInt8]])
    func invalidUTF8(inner: [UInt8]) {
        #expect(throws: JSON.ParseError.self) { try JSON(parsing: [0x22] + inner + [0x22]) }
    }

    @Test("an object that repeats a member name is refused, however the name is written", arguments: [
        #"{"a":1,"a":2}"#, #"{"a":1,"a":1}"#, #"{"a":null,"b":0,"a":null}"#, #"{"x":{"a":1,"a":2}}"#, #"{"a":1,"\u0061":2}"#,
    ])
    func duplicateMembers(text: String) {
        #expect(throws: JSON.ParseError.self) { try Self.parse(text) }
    }

    @Test("nesting: maxDepth levels read, one more is refused, 100,000 do not crash")
    func depth() throws {
        func arrays(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        func objects(_ depth: Int) -> String { String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth) }
        #expect(throws: Never.self) { try Self.parse(arrays(JSON.maxDepth)) }
        #expect(throws: Never.self) { try Self.parse(objects(JSON.maxDepth)) }
        #expect(throws: JSON.ParseError.self) { try Self.parse(arrays(JSON.maxDepth + 1)) }
        #expect(throws: JSON.ParseError.self) { try Self.parse(objects(JSON.maxDepth + 1)) }
        #expect(throws: JSON.ParseError.self) { try Self.parse(arrays(100_000)) }
    }

    @Test("the error says where the problem is")
    func errorOffset() {
        let error = #expect(throws: JSON.ParseError.self) { try Self.parse("[1,]") }
        #expect(error?.offset == 3)
        let duplicate = #expect(throws: JSON.ParseError.self) { try Self.parse(#"{"a":1, "a":2}"#) }
        #expect(duplicate?.offset == 8)
    }

    @Test("a parameter is a scalar; a number with no fraction is an integer")
    func parameterValues() {
        #expect(ParameterValue(json: .number(2)) == .integer(2))
        #expect(ParameterValue(json: .number(2.5)) == .number(2.5))
        #expect(ParameterValue(json: .integer(3)) == .integer(3))
        #expect(ParameterValue(json: .bool(true)) == .boolean(true))
        #expect(ParameterValue(json: .string("1")) == .string("1"))
        #expect(ParameterValue(json: .null) == nil)
        #expect(ParameterValue(json: .array([])) == nil)
        #expect(ParameterValue(json: .object([:])) == nil)
    }
}
