import AlertQueue
import AlertSpec
import Foundation
import Testing

@Suite("Item events")
struct ItemEventTests {
    @Test("A detail is written as strict JSON and read back as it was, whatever the user typed")
    func detailRoundTrip() throws {
        // Given
        let detail: [String: ParameterValue] = [
            "input": .string("say \"hi\"\\\n\t\u{1}é😀"), "delivery": .integer(3), "onScreen": .number(7.25),
            "secure": .boolean(false),
        ]
        let event = ItemEvent(kind: .acknowledged, session: "s", ticket: "t", at: Date(timeIntervalSince1970: 0), detail: detail)
        // When
        let json = event.detailJSON
        // Then
        #expect(json.hasPrefix(#"{"delivery":3,"input":"say \"hi\"\\\n\t\u0001é😀","#))
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
        #expect(ItemEvent.detail(fromJSON: json) == detail)
        #expect(ItemEvent(kind: .expired, session: "s", ticket: "t", at: Date()).detailJSON == "{}")
    }
}
