#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcesses
import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable with its SQLite store: what it acknowledged survives SIGKILL.

@Suite("alertd executable: durable session queues")
struct QueueProcessTests {
    /// `alertd serve` on a free port of 127.0.0.1 with `arguments`; its port once it says it listens.
    private func serve(_ arguments: [String]) throws -> (AlertdProcess, Int) {
        let run = try AlertdProcess.launch(["serve", "--host", "127.0.0.1", "--port", "0"] + arguments)
        let line = try #require(
            run.readStandardOutputLine(within: .seconds(10)), "no first line; stderr: \(run.standardErrorSoFar())")
        let prefix = "alertd listening on http://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
            run.kill()
            throw RawHTTPError.malformed("first line: \(line); stderr: \(run.standardErrorSoFar())")
        }
        return (run, port)
    }

    @Test("items and session tokens survive SIGKILL and a restart on the same SQLite file and data folder")
    func durableAcrossKill() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = "sqlite:" + folder.appendingPathComponent("q.sqlite").path
        let adminToken = "T-\(UUID().uuidString)"

        // Given alertd on a SQLite file, with an admin token given and the session secret generated
        let (first, firstPort) = try serve(["--store", store, "--admin-token", adminToken])
        defer { first.kill() }
        let dataFolder = first.dataFolder.path
        #expect(FileManager.default.fileExists(atPath: first.dataFolder.appendingPathComponent("session-secret").path))

        // And a session token, two alerts queued, and a third delivered and acknowledged
        let before = try SessionClient.open(port: firstPort, session: "device-1", adminToken: adminToken)
        let exit = try before.enqueue(#"{"alert":"app/questionExit"}"#)
        let messages = try before.enqueue(#"{"alert":"app/newMessages","params":{"count":2,"sender":"Ana"},"ttl":3600}"#)
        let shared = try before.enqueue(#"{"alert":"app/shareSheet"}"#)
        #expect(try before.delivered().ticket == shared.ticket)
        expectQueueAnswer(try before.ack(shared.ticket), status: 200)
        let listedBefore = try before.list().items
        #expect(listedBefore.map(\.ticket) == [exit.ticket, messages.ticket])

        // When the process is killed outright (no shutdown path) and started again on the same
        // file and the same data folder
        #expect(signalProcess(first.process.processIdentifier, SIGKILL) == 0)
        #expect(first.waitForExit(within: .seconds(5)), "still running after SIGKILL")
        let (second, secondPort) = try serve(["--store", store, "--admin-token", adminToken, "--data-dir", dataFolder])
        defer { second.kill() }

        // Then both queued items are still listed, as they were, and the acknowledged one is gone
        let after = try SessionClient(port: secondPort, session: "device-1", adminToken: adminToken)
        after.token = before.token
        let listedAfter = try after.list().items
        #expect(listedAfter.map(\.ticket) == [exit.ticket, messages.ticket])
        #expect(listedAfter.map(\.state) == ["queued", "queued"])
        #expect(listedAfter.map(\.alert) == ["app/questionExit", "app/newMessages"])
        #expect(listedAfter.map(\.expiresAt) == listedBefore.map(\.expiresAt))
        #expect(listedAfter.map(\.enqueuedAt) == listedBefore.map(\.enqueuedAt))

        // And the session token issued before the restart still opens the session (same secret)
        let ownList = try after.app("GET", "/queue")
        expectQueueAnswer(ownList, status: 200)
        let delivered = try after.delivered(locale: "fr")
        #expect(delivered.ticket == exit.ticket)
        #expect(delivered.spec.locale == "fr")
        expectQueueAnswer(try after.ack(exit.ticket), status: 200)
        #expect(try after.delivered().ticket == messages.ticket)

        // And it stops cleanly
        #expect(signalProcess(second.process.processIdentifier, SIGTERM) == 0)
        #expect(second.waitForExit(within: .seconds(10)), "still running 10 s after SIGTERM")
        withExtendedLifetime(first) {}  // its data folder is removed with it
    }
}
