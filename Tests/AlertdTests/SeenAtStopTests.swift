import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// The sessions seen since the last flush of their times are written when alertd stops, before
// the store closes: a SIGTERM loses none of them.

@Suite("alertd serve: last-seen times at stop")
struct SeenAtStopTests {
    @Test("SIGTERM writes the sessions seen since the last flush, and says how many; the registry is there after a restart")
    func seenTimesWrittenAtStop() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-seen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let adminToken = "seen-admin-\(UUID().uuidString)"
        let arguments = [
            "--store", "sqlite:" + folder.appendingPathComponent("q.sqlite").path, "--data-dir", folder.path,
            "--admin-token", adminToken,
        ]
        let (server, port) = try AlertdProcess.serving(arguments)
        defer { server.kill() }

        // Given a session registered with its user, then calling with its own token
        let phone = try SessionClient(port: port, session: "phone", adminToken: adminToken)
        let issued = try phone.admin("POST", "/token", json: #"{"user":"ana","topics":["beta"]}"#)
        #expect(issued.status == 201, "\(issued.text)")
        phone.token = try issued.decode(IssuedTokenBody.self).token
        // (Seen again over a second later: the listing's times are whole seconds.)
        Thread.sleep(forTimeInterval: 1.5)
        let called = Date()
        #expect(try phone.next().status == 204)

        // When alertd is stopped
        #expect(server.terminate(), "alertd did not stop cleanly; stderr: \(server.standardErrorSoFar().suffix(4000))")

        // Then the stop wrote the one session seen, before the store closed, unless the flush
        // every 5 s had just written it (its timer runs from the start, not from the call)
        let log = server.standardErrorSoFar()
        if let line = log.split(separator: "\n").first(where: { $0.contains("last-seen times written") }) {
            #expect(line.contains("1"), "\(line)")
        }
        #expect(!log.contains("last-seen times not written"), "\(log)")

        // And after a restart the user's session is there, with its topics
        let (again, newPort) = try AlertdProcess.serving(arguments)
        defer { again.kill() }
        let listed = try RawHTTPClient(port: newPort).request(
            "GET", "/v1/users/ana/sessions", headers: [("Authorization", "Bearer \(adminToken)")])
        #expect(listed.status == 200, "\(listed.text)")
        let sessions = try #require(try listed.jsonObject()?["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["session"] as? String } == ["phone"])
        #expect(sessions.first?["topics"] as? [String] == ["beta"])
        // seen at the call, not only at the token: one flush or the other wrote it
        let lastSeen = try #require((sessions.first?["lastSeen"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
        #expect(lastSeen >= Date(timeIntervalSince1970: called.timeIntervalSince1970.rounded(.down)), "\(lastSeen) < \(called)")
        #expect(again.terminate(), "alertd did not stop cleanly; stderr: \(again.standardErrorSoFar().suffix(4000))")
    }
}
