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

@Suite("Timeline times")
struct TimelineTimeTests {
    @Test("Written as Foundation's ISO 8601 style writes them, to the millisecond, cut not rounded")
    func sameAsFoundation() {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        var instants: [Double] = [0, -1.5, 951_782_400.123, 1_700_000_000.0005, 4_102_444_799.9996, -62_135_596_800, 253_402_300_799.999]
        for _ in 0..<20_000 {
            instants.append(Double(Int.random(in: -2_000_000_000...5_000_000_000, using: &generator)) + Double.random(in: 0..<1, using: &generator))
        }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ItemEvent.timeText(date) == date.formatted(style), "\(seconds)")
        }
    }
}
