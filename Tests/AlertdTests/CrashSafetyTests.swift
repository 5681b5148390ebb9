#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcesses
import Dispatch
import Foundation
import PostgresTestSupport
import Locking
import Synchronization
import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable, killed outright (SIGKILL, no shutdown path) while several clients
// enqueue as fast as they can, then started again on the same store and data folder: every
// enqueue it answered 201 is still there, once, whole.

@Suite("alertd executable: crash safety under SIGKILL", .serialized, .ownThread)
struct CrashSafetyTests {
    /// What the clients of all cycles were told, and what they sent without an answer.
    struct Ledger {
        /// session → (dedupeKey → ticket) for every enqueue answered 201.
        var acknowledged: [String: [String: String]] = [:]
        /// session → the dedupeKey of the request in flight when the server died (no answer).
        var unanswered: [String: String] = [:]
        /// Answers that were neither 201, a 503 store-unavailable nor a dropped connection.
        var unexpected: [String] = []
        /// 503 store-unavailable answers: honest refusals when the store is slow, never acknowledgements.
        var unavailable = 0
        var acknowledgedCount: Int { acknowledged.values.reduce(0) { $0 + $1.count } }
    }

    /// The ledger, shared by the client threads.
    final class SharedLedger: Sendable {
        private let ledger = Locked(Ledger())
        init() {}
        func withLock<R>(_ body: (inout Ledger) -> R) -> R { ledger.withLock { body(&$0) } }
    }

    static let clients = 8

    final class AtomicCounter: Sendable {
        private let value = Atomic<Int>(0)
        init() {}
        func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    }

    /// `cycles` rounds of: start alertd on `store`, `clients` threads enqueue distinct alerts over
    /// keep-alive connections, SIGKILL after a seeded random delay, start again and check every
    /// acknowledged enqueue of every cycle so far. The number of acknowledged enqueues checked,
    /// and of 503 store-unavailable refusals.
    static func crashCycles(store: String, cycles: Int, seed: UInt64) throws -> (checked: Int, refused: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let adminToken = "crash-admin-\(UUID().uuidString)"
        let arguments = [
            "--store", store, "--data-dir", folder.path, "--admin-token", adminToken, "--max-queue-length", "100000",
        ]
        // The kill delays come from a fixed seed, so a failing run can be replayed.
        var random = SplitMix64(seed: seed)
        let ledger = SharedLedger()

        var (server, port) = try AlertdProcess.serving(arguments)
        defer { server.kill() }
        var (reported, logs) = (0, [String]())
        for cycle in 0..<cycles {
            // Given `clients` threads, each enqueueing distinct alerts into a session of its own
            let firstAnswer = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            let answered = AtomicCounter()
            for client in 0..<clients {
                finished.enter()
                let session = "crash-\(cycle)-\(client)"
                Thread.detachNewThread { [port] in
                    defer { finished.leave() }
                    Self.enqueueUntilDropped(
                        port: port, session: session, adminToken: adminToken, ledger: ledger,
                        onAcknowledged: { if answered.increment() == 1 { firstAnswer.signal() } })
                }
            }
            // When, once the first 201 is in, the server is killed after a random short delay
            let started = firstAnswer.wait(timeout: .now() + 30) == .success
            #expect(started, "cycle \(cycle): no enqueue answered within 30 s; stderr: \(server.standardErrorSoFar())")
            let delay = Int.random(in: 20...300, using: &random)
            Thread.sleep(forTimeInterval: Double(delay) / 1000)
            #expect(signalProcess(server.process.processIdentifier, SIGKILL) == 0)
            #expect(server.waitForExit(within: .seconds(5)), "cycle \(cycle): still running after SIGKILL")
            #expect(server.process.terminationReason == .uncaughtSignal)
            #expect(finished.wait(timeout: .now() + 15) == .success, "cycle \(cycle): clients still running after the kill")
            // An unexpected answer is explained by what the killed server logged.
            let unexpected = ledger.withLock { $0.unexpected.count }
            if unexpected > reported {
                reported = unexpected
                logs.append("cycle \(cycle): " + server.standardErrorSoFar().split(separator: "\n").suffix(20).joined(separator: "\n"))
            }

            // Then, started again on the same store and data folder, it lists every acknowledged
            // enqueue of every cycle so far
            (server, port) = try AlertdProcess.serving(arguments)
            try verify(port: port, adminToken: adminToken, ledger: ledger.withLock { $0 }, cycle: cycle, delay: delay)
        }
        #expect(server.terminate(), "did not stop cleanly after the last cycle")
        let final = ledger.withLock { $0 }
        #expect(final.unexpected.isEmpty, "unexpected answers: \(final.unexpected.prefix(5)); the server's log: \(logs)")
        #expect(final.acknowledgedCount > 0)
        return (final.acknowledgedCount, final.unavailable)
    }

    /// Enqueues `{"alert":"app/questionExit","dedupeKey":…}` into `session` until the connection drops.
    static func enqueueUntilDropped(
        port: Int, session: String, adminToken: String, ledger: SharedLedger, onAcknowledged: () -> Void
    ) {
        guard let client = try? RawHTTPClient(port: port, timeout: .seconds(10)) else { return }
        let headers = [("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json")]
        var sequence = 0
        var retrying = false
        while true {
            let key = "\(session)-\(sequence)"
            ledger.withLock { $0.unanswered[session] = key }
            let body = Array(#"{"alert":"app/questionExit","dedupeKey":"\#(key)"}"#.utf8)
            let response: RawHTTPResponse
            do {
                response = try client.request("POST", "/v1/sessions/\(session)/queue", headers: headers, body: body)
            } catch {
                return  // the server is gone: this one was never answered
            }
            // A loaded machine can keep the store from answering in time: that is a refusal, not an
            // acknowledgement (it may or may not have been stored). Like a real client, send the same
            // key again shortly; if the refused attempt was stored after all, the retry is told so.
            if response.status == 503, response.text.contains("urn:alertd:problem:store-unavailable") {
                ledger.withLock { $0.unavailable += 1 }
                retrying = true
                Thread.sleep(forTimeInterval: 0.2)
                continue
            }
            // A new item is answered 201; a retry that finds its refused attempt stored, 200 duplicate.
            guard let enqueued = try? response.decode(EnqueuedBody.self),
                enqueued.duplicate ? retrying && response.status == 200 : response.status == 201
            else {
                ledger.withLock { $0.unexpected.append("\(key): \(response.status) \(response.text)") }
                return
            }
            ledger.withLock { ledger in
                ledger.acknowledged[session, default: [:]][key] = enqueued.ticket
                ledger.unanswered[session] = nil
            }
            sequence += 1
            retrying = false
            onAcknowledged()
        }
    }

    /// Lists every session of `ledger` as admin and checks its items against what was acknowledged.
    static func verify(port: Int, adminToken: String, ledger: Ledger, cycle: Int, delay: Int) throws {
        var seenTickets = Set<String>()
        let sessions = Set(ledger.acknowledged.keys).union(ledger.unanswered.keys)
        for session in sessions.sorted() {
            let client = try SessionClient(port: port, session: session, adminToken: adminToken)
            // The listing decodes: every item has every field (no half-written row)
            let items = try listing(client).items
            let acknowledged = ledger.acknowledged[session] ?? [:]
            var listed: [String: String] = [:]
            for item in items {
                // A key given in the request is listed as given
                let key = try #require(item.dedupeKey, "an item listed without the dedupeKey it was given")
                #expect(seenTickets.insert(item.ticket).inserted, "ticket \(item.ticket) listed twice (cycle \(cycle))")
                #expect(listed.updateValue(item.ticket, forKey: key) == nil, "\(key) listed twice")
                #expect(item.alert == "app/questionExit" && item.state == "queued" && item.deliveries == 0 && item.lane != "")
                #expect(apiDate(item.enqueuedAt) != nil, "enqueuedAt \(item.enqueuedAt)")
                // Nothing the clients did not send: an acknowledged key, or the one left unanswered
                #expect(
                    acknowledged[key] == item.ticket || ledger.unanswered[session] == key,
                    "\(session): \(key) → \(item.ticket) was never acknowledged with that ticket")
            }
            let missing = acknowledged.filter { listed[$0.key] != $0.value }
            #expect(
                missing.isEmpty,
                "cycle \(cycle) (kill after \(delay) ms): \(missing.count) of \(acknowledged.count) acknowledged enqueues of \(session) lost, e.g. \(missing.first.map { "\($0.key) \($0.value)" } ?? "")"
            )
        }
    }

    /// The session's listing. A server just started may not reach its store yet on a loaded
    /// machine: its 503 store-unavailable is asked again, for up to 30 s.
    static func listing(_ client: SessionClient) throws -> QueueListBody {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let response = try client.admin("GET", "/queue")
            if response.status == 503, response.text.contains("urn:alertd:problem:store-unavailable"), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.2)
                continue
            }
            try #require(response.status == 200, "list: \(response.status) \(response.text)")
            return try response.decode(QueueListBody.self)
        }
    }

    @Test("SQLite: 5 SIGKILL cycles under 8 enqueueing clients lose no acknowledged enqueue")
    func sqliteCrashCycles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-crash-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let checked = try Self.crashCycles(
            store: "sqlite:" + folder.appendingPathComponent("crash.sqlite").path, cycles: 5, seed: 0x5EED_0007)
        print("crash safety (SQLite): 5 SIGKILL cycles, \(Self.clients) clients, \(checked.checked) acknowledged enqueues checked, \(checked.refused) refused as unavailable")
    }

    @Test("PostgreSQL: 5 SIGKILL cycles under 8 enqueueing clients lose no acknowledged enqueue")
    func postgresCrashCycles() async throws {
        let url = try await PostgresCluster.shared().createDatabase()
        let checked = try Self.crashCycles(store: url, cycles: 5, seed: 0x5EED_0008)
        print("crash safety (PostgreSQL): 5 SIGKILL cycles, \(Self.clients) clients, \(checked.checked) acknowledged enqueues checked, \(checked.refused) refused as unavailable")
    }
}
