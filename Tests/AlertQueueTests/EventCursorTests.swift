import AlertQueue
import Testing

@Suite struct EventCursorTests {
    @Test("A cursor's text reads back as the same cursor", arguments: [
        EventCursor(id: 0), EventCursor(id: 42), EventCursor(transaction: 981, id: 7),
        EventCursor(transaction: UInt64(Int64.max) + 1, id: .max),
    ])
    func roundTrip(_ cursor: EventCursor) {
        #expect(EventCursor(cursor.description) == cursor)
    }

    @Test("Text no cursor writes is refused", arguments: ["", "x", "-1", "1.", ".1", "1.2.3", "0.5", "+3", "1e3", "١٢", "99999999999999999999"])
    func refused(_ text: String) {
        #expect(EventCursor(text) == nil)
    }

    @Test("Cursors order by transaction, then id")
    func order() {
        #expect(EventCursor(id: 9) < EventCursor(transaction: 1, id: 1))
        #expect(EventCursor(transaction: 2, id: 1) < EventCursor(transaction: 2, id: 3))
        #expect(EventCursor.start < EventCursor(id: 1))
    }
}
