import AlertCatalogs
import AlertQueue
import AlertQueueSQLite
@testable import AlertServer
import Foundation
import MicroHTTP
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The probe behind `alertd healthcheck`: its URL, its verdict, and the HTTP it reads.

@Suite("Readiness probe")
struct ReadinessProbeTests {
    @Test(
        "a probe URL names host, port and path; no path means /readyz",
        arguments: [
            ("http://127.0.0.1:8080", "127.0.0.1", 8080, "/readyz"),
            ("http://127.0.0.1:8080/", "127.0.0.1", 8080, "/readyz"),
            ("HTTP://localhost", "localhost", 80, "/readyz"),
            ("http://[::1]:9090/livez", "::1", 9090, "/livez"),
            ("http://alertd.internal:81/readyz?verbose=1", "alertd.internal", 81, "/readyz?verbose=1"),
        ])
    func parsesURL(url: String, host: String, port: Int, path: String) throws {
        let probe = try ReadinessProbe(url: url)
        #expect(probe.host == host)
        #expect(probe.port == port)
        #expect(probe.path == path)
    }

    @Test(
        "a URL the probe cannot use is refused with the reason",
        arguments: [
            ("https://127.0.0.1", "http://"), ("127.0.0.1:8080", "http://"), ("http://:8080", "no host"),
            ("http://h:0", "port"), ("http://h:99999", "port"), ("http://h:x", "port"), ("http://[::1", "unclosed"),
            ("http://user:pw@h", "no user"), ("http://h/a b", "blanks"),
        ])
    func refusesURL(url: String, reason: String) {
        #expect {
            try ReadinessProbe(url: url)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("a server listening on every address is asked on the loopback of its family")
    func defaultURL() {
        #expect(ReadinessProbe.defaultURL(host: "0.0.0.0", port: 8080) == "http://127.0.0.1:8080/readyz")
        #expect(ReadinessProbe.defaultURL(host: "::", port: 8080) == "http://[::1]:8080/readyz")
        #expect(ReadinessProbe.defaultURL(host: "10.1.2.3", port: 80) == "http://10.1.2.3:80/readyz")
        #expect(ReadinessProbe.defaultURL(host: "::1", port: 81) == "http://[::1]:81/readyz")
    }

    @Test("a ready server is ready")
    func ready() throws {
        try withLiveServer { port in
            let probe = try ReadinessProbe(url: "http://127.0.0.1:\(port)")
            #expect(probe.check(timeout: .seconds(3)) == .ready)
        }
    }

    @Test("a server whose store fails is not ready, and the reason is the problem's title and detail")
    func storeUnavailable() throws {
        // Given a server on a SQLite store that is then closed under it
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteQueueStore(path: folder.appendingPathComponent("alertd.sqlite").path)
        let service = try AlertService(
            catalogs: .builtIn(), queue: QueueServices(store: store, credentials: TestCredentials.credentials))
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 2), handler: service)
        defer { server.stop(grace: .seconds(1)) }
        let probe = try ReadinessProbe(url: "http://127.0.0.1:\(server.port)")
        #expect(probe.check(timeout: .seconds(3)) == .ready)
        try store.close()

        // When the probe asks
        // Then it is not ready, saying 503 and the problem's words
        #expect(
            probe.check(timeout: .seconds(3))
                == .notReady(
                    "http://127.0.0.1:\(server.port)/readyz answered 503: Service unavailable: The queue store cannot be reached. Try again shortly."
                ))
    }

    @Test("the probe reads answers with a length, chunked, or ended by the close")
    func parsesAnswers() throws {
        let sized = try #require(
            try HTTPProbe.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8), complete: false))
        #expect(sized.status == 200 && sized.body == Array("hello".utf8))
        // A body shorter than its length is not an answer yet, and is an error once the peer closed
        #expect(try HTTPProbe.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello".utf8), complete: false) == nil)
        #expect(throws: ProbeError.self) {
            try HTTPProbe.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello".utf8), complete: true)
        }
        let chunked = try #require(
            try HTTPProbe.parse(
                Array("HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n".utf8),
                complete: false))
        #expect(chunked.status == 503 && chunked.body == Array("abcde".utf8))
        let closed = try #require(try HTTPProbe.parse(Array("HTTP/1.0 200 OK\r\n\r\nrest".utf8), complete: true))
        #expect(closed.body == Array("rest".utf8))
        #expect(throws: ProbeError.self) { try HTTPProbe.parse(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8), complete: true) }
    }
}
