import AlertCatalogs
import AlertQueue
import AlertServer
import Dispatch
import Foundation
import GRDB
import Logging
import MicroHTTP
import TestClocks
import Testing
@testable import AlertQueueSQLite
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Faults injected under a live server on a SQLite file: a full disk (the database's page limit),
// a stalled commit (the write lock held by another connection), the file deleted. Each answers
// 503 store-unavailable with its reason, counts in alertd_store_errors_total{reason}, fails
// /readyz, leaves renders answering, and loses nothing that was acknowledged.

@Suite("Store failures: 503 with a reason, counted, visible in readiness, nothing acknowledged lost")
struct StoreFailureTests {
    /// A SQLite store in a folder of its own, served live; the folder is removed afterwards.
    private func withFileStore<Result>(
        clock: any AlertClock = SystemClock(), logger: Logger? = nil,
        _ body: (_ port: Int, _ store: SQLiteQueueStore, _ path: String) throws -> Result
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("alertd.sqlite").path
        let store = try SQLiteQueueStore(path: path, settings: QueueSettings(), timeout: .seconds(5), clock: clock)
        let service = try AlertService(
            catalogs: .builtIn(), queue: QueueServices(store: store, credentials: TestCredentials.credentials, clock: clock),
            logger: logger ?? Self.quiet)
        return try withServer(service) { port, _ in try body(port, store, path) }
    }

    /// Expects a 503 store-unavailable problem with `reason`.
    private func expectStoreFailure(
        _ response: RawHTTPResponse, reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let problem = try LiveProblemTests.expectCleanProblem(response, status: 503, code: "store-unavailable", sourceLocation: sourceLocation)
        #expect(problem.reason == reason, sourceLocation: sourceLocation)
    }

    /// The count of `alertd_store_errors_total` for `reason`.
    private func storeErrors(_ reason: String, port: Int) throws -> Double {
        try Samples(try RawHTTPClient(port: port).request("GET", "/metrics").text)["alertd_store_errors_total{reason=\"\(reason)\"}"] ?? 0
    }

    /// Warnings and worse only: no line per request.
    private static let quiet = {
        var logger = Logger(label: "alertd.test")
        logger.logLevel = .warning
        return logger
    }()

    @Test("A full disk: 503 disk-full with Retry-After, counted, not ready; once there is room, ready and writing, nothing lost")
    func diskFull() throws {
        try withFileStore { port, store, _ in
            let backend = try SessionClient.open(port: port, session: "full")
            // Given: the database may grow no more
            try store.writer.writeWithoutTransaction { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
            // When: enqueues of a few KiB each, until the store refuses one (bounded)
            let message = String(repeating: "m", count: 2000)
            var acknowledged: [String] = []
            var refusal: RawHTTPResponse?
            for index in 0..<200 where refusal == nil {
                let spec = #"{"spec":{"kind":"alert","title":"t","message":"\#(message)","actions":[{"id":"ok","label":"OK"}]},"dedupeKey":"k\#(index)"}"#
                let response = try backend.admin("POST", "/queue", json: spec)
                if response.status == 201 {
                    acknowledged.append(try response.decode(EnqueuedBody.self).ticket)
                } else {
                    refusal = response
                }
            }
            // Then: 503 disk-full, to be tried again, counted, and readiness says so
            let refused = try #require(refusal, "200 enqueues all fitted")
            try expectStoreFailure(refused, reason: "disk-full")
            #expect(refused.header("Retry-After") == "1")
            #expect(try storeErrors("disk-full", port: port) >= 1)
            try expectStoreFailure(try RawHTTPClient(port: port).request("GET", "/readyz"), reason: "disk-full")
            // And what needs no write still answers
            #expect(try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit").status == 200)
            #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
            // When: there is room again
            try store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
            // Then: ready again by itself (its probe write succeeds), writes are taken, and every
            // acknowledged item is there
            #expect(try RawHTTPClient(port: port).request("GET", "/readyz").status == 200)
            #expect(try backend.admin("POST", "/queue", json: #"{"alert":"app/saved"}"#).status == 201)
            let listed = Set(try backend.list().items.map(\.ticket))
            #expect(Set(acknowledged).isSubset(of: listed), "acknowledged but missing: \(Set(acknowledged).subtracting(listed))")
        }
    }

    @Test("A stalled commit: writes answer 503 timeout after --store-timeout, renders and /livez answer meanwhile, then it recovers")
    func stalledCommit() throws {
        let clock = ManualClock()
        try withFileStore(clock: clock) { port, _, path in
            let backend = try SessionClient.open(port: port, session: "stall")
            let kept = try backend.enqueue(#"{"alert":"app/questionExit"}"#)
            // Given: another connection holds the write lock (a stalled disk holds commits so)
            let release = DispatchSemaphore(value: 0)
            let holding = DispatchSemaphore(value: 0)
            let other = try DatabaseQueue(path: path)
            Thread.detachNewThread {
                try? other.inTransaction(.immediate) { _ in
                    holding.signal()
                    _ = release.wait(timeout: .now() + 30)
                    return .rollback
                }
            }
            #expect(holding.wait(timeout: .now() + 10) == .success)
            // When: an enqueue waits for the writer, and the timeout passes
            let stalled = try SessionClient(port: port, session: "stall", timeout: .seconds(20))
            try stalled.client.send(RawHTTPClient.requestBytes(
                "POST", "/v1/sessions/stall/queue",
                headers: [("Authorization", "Bearer \(TestCredentials.adminToken)"), ("Content-Type", "application/json")],
                body: Array(#"{"alert":"app/logoutConfirm"}"#.utf8)))
            #expect(eventually(within: .seconds(10)) { requestsInFlight(port: port) == 2 }, "the enqueue never arrived")
            // Then: renders, /livez and /metrics answer while the commit waits
            #expect(try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit").status == 200)
            #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
            clock.advance(by: 5)
            // And the enqueue is answered 503 timeout, counted; readiness reports the stall
            try expectStoreFailure(try stalled.client.readResponse(), reason: "timeout")
            #expect(try storeErrors("timeout", port: port) >= 1)
            try expectStoreFailure(try RawHTTPClient(port: port).request("GET", "/readyz"), reason: "timeout")
            // When: the lock is released
            release.signal()
            // Then: ready again, writes are taken, and the item acknowledged before is there
            #expect(eventually(within: .seconds(15)) { (try? RawHTTPClient(port: port).request("GET", "/readyz").status) == 200 })
            #expect(try backend.admin("POST", "/queue", json: #"{"alert":"app/saved"}"#).status == 201)
            #expect(try backend.list().items.map(\.ticket).contains(kept.ticket))
        }
    }

    @Test("The file deleted under the server: every write 503 replaced, a critical line, not ready; never a 201")
    func deletedFile() throws {
        let logs = LogCollector()
        try withFileStore(logger: logs.logger(.text)) { port, _, path in
            let backend = try SessionClient.open(port: port, session: "gone")
            _ = try backend.enqueue(#"{"alert":"app/questionExit"}"#)
            // When: the database's files are deleted
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            // Then: writes are refused, without Retry-After (only a restart helps), counted, logged
            // as critical; readiness fails, and stays failed
            for index in 0..<3 {
                let response = try backend.admin("POST", "/queue", json: #"{"alert":"app/saved","dedupeKey":"d\#(index)"}"#)
                try expectStoreFailure(response, reason: "replaced")
                #expect(response.header("Retry-After") == nil)
            }
            #expect(try storeErrors("replaced", port: port) == 3)
            #expect(logs.line(containing: "critical") != nil, "no critical line: \(logs.all)")
            try expectStoreFailure(try RawHTTPClient(port: port).request("GET", "/readyz"), reason: "replaced")
            try expectStoreFailure(try RawHTTPClient(port: port).request("GET", "/readyz"), reason: "replaced")
            // And renders still answer
            #expect(try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit").status == 200)
        }
    }
}
