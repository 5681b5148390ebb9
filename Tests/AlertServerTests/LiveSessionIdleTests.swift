import AlertQueue
import AlertQueueSQLite
import AlertServer
import Foundation
import Logging
import TestClocks
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// `--session-idle` over real sockets: once the clock passes a session's last sight by the idle
// period, a retention pass erases it as `DELETE /v1/sessions/{s}` does; a session seen since stays.

@Suite("Live server: idle sessions forgotten")
struct LiveSessionIdleTests {
    @Test("a retention pass forgets the sessions not seen for the idle period, and keeps one seen meanwhile")
    func idleSessionsForgotten() throws {
        let clock = ManualClock()
        let logs = LogCollector()
        try withLiveService(clock: clock) { port, service in
            // Given two sessions of ana with items and topics; the tablet calls again later
            let phone = try SessionClient(port: port, session: "phone")
            expectQueueAnswer(try phone.admin("POST", "/token", json: #"{"user":"ana","topics":["beta"]}"#), status: 201)
            let ticket = try phone.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            let tablet = try SessionClient(port: port, session: "tablet")
            let issued = try tablet.admin("POST", "/token", json: #"{"user":"ana","ttl":7776000}"#)
            tablet.token = try issued.decode(IssuedTokenBody.self).token
            _ = try tablet.enqueue(#"{"alert":"app/questionExit"}"#)
            let retention = HistoryRetention(
                store: service.queue.store, clock: clock, retention: 30 * 86_400, batchSize: 1, pause: .zero,
                logger: logs.logger(.json, level: .info), sessionIdle: 90 * 86_400, seen: service.queue.seen)
            clock.advance(by: 60 * 86_400)
            expectQueueAnswer(try tablet.app("GET", "/queue"), status: 200)  // seen, not flushed yet

            // When a pass runs before the idle period has passed, nothing goes
            clock.advance(by: 29 * 86_400)
            _ = try waitBlocking { try await retention.pass() }
            #expect(try LiveUserTests.sessions(port, of: "ana").count == 2)

            // When the clock passes the phone's idle period and a pass runs
            clock.advance(by: 86_400 + 1)
            _ = try waitBlocking { try await retention.pass() }

            // Then the phone is erased whole, the tablet kept with its item
            #expect(try LiveUserTests.sessions(port, of: "ana").map(\.session) == ["tablet"])
            #expect(try phone.admin("GET", "/queue/\(ticket)").status == 404)
            #expect(try phone.list().items.isEmpty)
            #expect(try tablet.list().items.count == 1)
            let line = try #require(logs.line(containing: "idle sessions forgotten"), "lines: \(logs.all)")
            #expect(line.contains(#""sessions":"1""#) && line.contains(#""items":"1""#), "\(line)")
        }
    }

    @Test("a pass forgets at most its bound of idle sessions; the next pass goes on")
    func boundedPerPass() async throws {
        let clock = ManualClock()
        let store = try SQLiteQueueStore.inMemory()
        try await store.markSeen(Dictionary(uniqueKeysWithValues: (0..<5).map { ("s\($0)", clock.now()) }))
        let retention = HistoryRetention(
            store: store, clock: clock, retention: 86_400, batchSize: 2, pause: .zero, sessionIdle: 3_600, idlePerPass: 3)
        clock.advance(by: 3_601)
        let cutoff = clock.now().addingTimeInterval(-3_600)
        #expect(try await retention.forgetIdleSessions(seenBefore: cutoff).sessions == 3)
        #expect(try await retention.forgetIdleSessions(seenBefore: cutoff).sessions == 2)
        #expect(try await retention.forgetIdleSessions(seenBefore: cutoff).sessions == 0)
    }
}
