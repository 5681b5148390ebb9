import Foundation
import Testing

@testable import AlertSpec

@Suite("Ordered JSON encoding")
struct OrderedJSONEncoderTests {
    private func text(_ value: some Encodable) throws -> String {
        String(decoding: try OrderedJSONEncoder().encode(value), as: UTF8.self)
    }

    @Test("the envelope comes first, in a fixed order, the same bytes every time")
    func envelopeOrder() throws {
        // Given a rendered HUD spec
        let spec = AlertSpec(id: "app/saved", locale: "en", priority: 900, body: .hud(.init(state: .success, text: "Saved")))
        // When it is encoded twice
        let first = try text(spec)
        let second = try text(spec)
        // Then the members come in declaration order and the bytes are equal
        #expect(
            first
                == #"{"schemaVersion":1,"id":"app/saved","kind":"hud","lane":"hud","locale":"en","direction":"ltr","priority":900,"state":"success","text":"Saved","autoHide":2}"#
        )
        #expect(first == second)
    }

    @Test("strings are escaped as JSON requires and slashes are left alone")
    func escaping() throws {
        #expect(try text("a\"b\\c\n\u{01}/é") == #""a\"b\\c\n\u0001/é""#)
    }

    @Test("numbers: integral doubles without a fraction, others in full")
    func numbers() throws {
        #expect(try text([1.0, 0.25, -3.5]) == "[1,0.25,-3.5]")
        #expect(try text([-0.0, 999_999_999_999_999, 1e15, 1e-7]) == "[0,999999999999999,1000000000000000.0,1e-07]")
        #expect(try text([0, 9, 10, -1, Int.max, Int.min]) == "[0,9,10,-1,\(Int.max),\(Int.min)]")
    }

    @Test("integers of every width are written as numbers")
    func widths() throws {
        struct Widths: Encodable {
            var a: Int64 = .min, b: UInt64 = .max, c: Int32 = -7, d: UInt8 = 255, e: [Int16] = [1, -2]
        }
        #expect(try text(Widths()) == #"{"a":-9223372036854775808,"b":18446744073709551615,"c":-7,"d":255,"e":[1,-2]}"#)
    }

    @Test("non-finite numbers cannot be encoded")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try OrderedJSONEncoder().encode([Double.nan]) }
    }

    /// A NaN in an object in an array in an object, reached through nested containers.
    private struct DeepNaN: Encodable {
        enum Keys: String, CodingKey { case list, x }

        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var list = outer.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            var element = list.nestedContainer(keyedBy: Keys.self)
            try element.encode(Double.nan, forKey: .x)
        }
    }

    @Test("a value that cannot be encoded is reported with its coding path, array indices included")
    func errorPath() throws {
        // Given NaNs at known places; when they are encoded, then the error says where
        func path(_ value: some Encodable) -> [String]? {
            do {
                _ = try OrderedJSONEncoder().encode(value)
            } catch EncodingError.invalidValue(_, let context) {
                return context.codingPath.map(\.stringValue)
            } catch {}
            return nil
        }
        #expect(path(["a": [1.0, .infinity]]) == ["a", "1"])
        #expect(path(DeepNaN()) == ["list", "1", "x"])
    }

    @Test("what it writes, Foundation reads back into the same spec")
    func roundTrip() throws {
        let spec = AlertSpec(
            id: "app/x", locale: "ar", priority: 1,
            body: .alert(
                .init(
                    title: "t", image: .asset("bell", tint: "#FF0000"),
                    actions: [
                        .init(id: "a", label: "A", role: .primary, action: .openURL(url: "https://example.org/a")),
                        .init(id: "b", label: "B", action: .next(alert: "app/y", params: ["n": .integer(2)])),
                        .init(id: "c", label: "C", role: .cancel),
                    ])))
        let decoded = try JSONDecoder().decode(AlertSpec.self, from: Data(OrderedJSONEncoder().encode(spec)))
        #expect(decoded == spec)
        #expect(decoded.direction == .rtl)
    }
    /// Encodes through nested containers and a second `container(keyedBy:)` on one encoder.
    private struct Nested: Encodable {
        enum Outer: String, CodingKey { case a, inner, list, after }
        enum More: String, CodingKey { case more }
        enum Inner: String, CodingKey { case x, y }

        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Outer.self)
            try outer.encode(1, forKey: .a)
            var inner = outer.nestedContainer(keyedBy: Inner.self, forKey: .inner)
            try inner.encode("x", forKey: .x)
            try inner.encodeNil(forKey: .y)
            var list = outer.nestedUnkeyedContainer(forKey: .list)
            try list.encode(true)
            var element = list.nestedContainer(keyedBy: Inner.self)
            try element.encode(2.5, forKey: .x)
            try list.encode([Empty(), Empty()])
            try outer.encode("end", forKey: .after)
            var more = encoder.container(keyedBy: More.self)  // the same object, continued
            try more.encode([String](), forKey: .more)
        }
    }

    private struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Writes to a nested container after its parent wrote again.
    private struct OutOfOrder: Encodable {
        enum Keys: String, CodingKey { case first, second }

        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var first = outer.nestedContainer(keyedBy: Keys.self, forKey: .first)
            try outer.encode(2, forKey: .second)
            try first.encode(1, forKey: .first)
        }
    }

    @Test("nested containers close when their parent writes again; an encoder asked twice continues its object")
    func nesting() throws {
        #expect(
            try text(Nested())
                == #"{"a":1,"inner":{"x":"x","y":null},"list":[true,{"x":2.5},[{},{}]],"after":"end","more":[]}"#)
        #expect(try text([Nested(), Nested()]).hasPrefix(#"[{"a":1,"#))
        #expect(try text(Empty()) == "{}")
    }

    @Test("writing to a container that is already finished throws instead of writing bad JSON")
    func outOfOrder() {
        #expect(throws: EncodingError.self) { try OrderedJSONEncoder().encode(OutOfOrder()) }
    }
}
