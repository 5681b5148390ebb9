import AlertQueue
import AlertQueueSQLite
import AlertSpec
import Foundation
import Locking
import Logging
import Testing

@testable import AlertServer

// The campaign runner over a real SQLite store: the sessions whose polls wait go first, in
// batches of which two wait at the writer at once, and live writes beside them make batches
// give way, leaving sessions for a later batch.

@Suite("Campaign runner")
struct CampaignRunnerTests {
    @Test("every waiting poll is handed its own copy once, while live enqueues make the batches give way")
    func waitingPollsServedOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteQueueStore(path: folder.appendingPathComponent("alertd.sqlite").path)
        let clock = SystemClock()
        let polls = LongPolls(clock: clock)
        defer { polls.close() }
        // Given 600 sessions whose polls wait (batches of 64: ten of them at least)
        let sessions = (0..<600).map { "s\($0)" }
        let handed = Locked<[String: [String?]]>([:])
        for session in sessions {
            polls.park(session: session, since: polls.generation(of: session), until: clock.now().addingTimeInterval(120)) { item in
                handed.withLock { $0[session, default: []].append(item?.ticket) }
            }
        }
        var template = NewItem(
            session: "", content: .alert(id: "app/promo", parameters: [:]), priority: 500, lane: .modal, dedupeKey: "app/promo", ttl: 3600)
        template.origin = .campaign
        try await store.createCampaign(Campaign(id: "spring", template: template, audience: .sessions(sessions), createdAt: clock.now()))
        // When the runner fans it out, with enqueues on other sessions arriving all along
        let runner = CampaignRunner(store: store, polls: polls, clock: clock, logger: Logger(label: "test"), batchSize: 64)
        let live = Task {
            var sent = 0
            while !Task.isCancelled {
                let item = NewItem(
                    session: "live-\(sent % 50)", content: .alert(id: "app/saved", parameters: [:]), priority: 500, lane: .modal,
                    dedupeKey: "k\(sent)")
                _ = try? await store.enqueue(item, now: clock.now())
                sent += 1
            }
            return sent
        }
        await runner.runAll()
        live.cancel()
        #expect(await live.value > 0)
        // Then each poll was answered once, with the copy its session now presents
        let answers = handed.withLock { $0 }
        #expect(answers.count == sessions.count)
        for session in sessions {
            let items = try await store.items(session: session, now: clock.now())
            #expect(items.count == 1 && items.first?.state == .presenting, "\(session): \(items.map(\.state))")
            #expect(answers[session] == [items.first?.ticket], "\(session) was answered \(answers[session] ?? [])")
        }
        let stored = try #require(try await store.campaign(id: "spring"))
        #expect(stored.state == .done && stored.targeted == 600 && stored.queued == 600)
        #expect(polls.count == 0)
        try store.close()
    }
}
