import AlertQueue
import Testing

@testable import AlertServer
@testable import AlertSpec
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The queue answers that write themselves must give the bytes their `Encodable` form gives.

@Suite("Queue answers written directly")
struct QueueViewEncodingTests {
    static let spec = EncodedJSON(Array(#"{"kind":"toast","id":"app/saved","text":"Saved \"ü\""}"#.utf8))

    /// Both ways: the writer (`encode`, which takes it) and the `Encodable` form (`encodeStreaming`).
    func bothWays<T: Encodable & JSONWritable>(_ value: T) throws -> (written: String, encoded: String) {
        let encoder = OrderedJSONEncoder()
        return (String(decoding: try encoder.encode(value), as: UTF8.self), String(decoding: try encoder.encodeStreaming(value), as: UTF8.self))
    }

    @Test("an enqueue's answer, new and duplicate")
    func enqueued() throws {
        for value in [
            Enqueued(ticket: "t_1", position: 0, duplicate: false, refreshed: false),
            Enqueued(ticket: "t\"2\\", position: 12, duplicate: true, refreshed: true),
        ] {
            let both = try bothWays(value)
            #expect(both.written == both.encoded)
        }
        #expect(
            try bothWays(Enqueued(ticket: "t_1", position: 3, duplicate: false, refreshed: false)).written
                == #"{"ticket":"t_1","position":3,"duplicate":false,"refreshed":false}"#)
    }

    @Test("a delivery, its spec embedded as it was encoded")
    func delivery() throws {
        let both = try bothWays(DeliveredItem(ticket: "t_1", spec: Self.spec, deliveries: 2))
        #expect(both.written == #"{"ticket":"t_1","spec":{"kind":"toast","id":"app/saved","text":"Saved \"ü\""},"deliveries":2}"#)
        // The streaming path cannot take EncodedJSON apart from OrderedJSONEncoder's own writer.
        #expect(both.written == both.encoded)
    }

    @Test("a withdraw")
    func withdraw() throws {
        let both = try bothWays(Withdraw(withdraw: "t_1"))
        #expect(both.written == #"{"withdraw":"t_1"}"#)
        #expect(both.written == both.encoded)
    }

    @Test("an ack's answer, with and without a chained ticket, in every state")
    func acknowledged() throws {
        for state in ItemState.allCases {
            for chained in [nil, "t_next"] {
                let both = try bothWays(Acknowledged(ticket: "t_1", state: state, chained: chained))
                #expect(both.written == both.encoded)
            }
        }
        #expect(try bothWays(Acknowledged(ticket: "t_1", state: .done, chained: nil)).written == #"{"ticket":"t_1","state":"done"}"#)
    }
}
