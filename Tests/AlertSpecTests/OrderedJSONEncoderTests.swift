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
    }

    @Test("non-finite numbers cannot be encoded")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try OrderedJSONEncoder().encode([Double.nan]) }
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
}
