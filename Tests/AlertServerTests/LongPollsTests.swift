import Dispatch
import Foundation
import Locking
import Testing

@testable import AlertServer

// Where a parked long-poll's wake-up runs: a notification runs it on the notifying thread (so an
// enqueue hands its item over without a thread hop), everything else on other threads, and a
// waiter is woken exactly once.

@Suite("LongPolls")
struct LongPollsTests {
    /// Records, for each wake-up, whether it ran while `during` was on the stack of this thread.
    final class Wakes: Sendable {
        private let state = Locked<(count: Int, inline: Int)>((0, 0))
        private let inside = Locked<pthread_t?>(nil)

        func wake() {
            let inline = inside.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
            state.withLock { $0.count += 1; $0.inline += inline ? 1 : 0 }
        }

        /// Runs `body`, noting this thread as the one whose wake-ups count as inline.
        func during(_ body: () -> Void) {
            inside.withLock { $0 = pthread_self() }
            body()
            inside.withLock { $0 = nil }
        }

        var count: Int { state.withLock { $0.count } }
        var inline: Int { state.withLock { $0.inline } }

        /// Waits (at most 10 s) until `count` wake-ups happened.
        func waitFor(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while self.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        }
    }

    @Test("a notification wakes the session's waiters on the notifying thread, once each")
    func notificationWakesInline() async throws {
        // Given: two waiters of session s and one of t
        let polls = LongPolls()
        let wakes = Wakes()
        let later = ContinuousClock.now + .seconds(30)
        for session in ["s", "s", "t"] {
            polls.park(session: session, since: polls.generation(of: session), until: later) { wakes.wake() }
        }
        // When: s is notified, twice
        wakes.during { polls.notify("s") }
        polls.notify("s")
        // Then: both of s's waiters woke, before notify returned, on its thread; t's still waits
        #expect(wakes.count == 2)
        #expect(wakes.inline == 2)
        #expect(polls.count == 1)
    }

    @Test("a waiter that parks after a notification is woken at once, but never on the parking thread")
    func lateParkWakesElsewhere() async throws {
        // Given: the generation read before a look, then a notification during the look
        let polls = LongPolls()
        let wakes = Wakes()
        let generation = polls.generation(of: "s")
        polls.notify("s")
        // When: the look parks with the old generation
        wakes.during {
            polls.park(session: "s", since: generation, until: ContinuousClock.now + .seconds(30)) { wakes.wake() }
        }
        // Then: it is woken, on another thread (a look that parks late again and again would
        // otherwise nest each new look in the stack of the last)
        try await wakes.waitFor(1)
        #expect(wakes.count == 1)
        #expect(wakes.inline == 0)
        #expect(polls.count == 0)
    }

    @Test("deadlines wake their waiters, each once: a later notification wakes none again")
    func deadlinesWakeElsewhere() async throws {
        // Given: three waiters whose deadlines are near, checked every 5 ms
        let polls = LongPolls(tick: .milliseconds(5))
        let wakes = Wakes()
        for _ in 0..<3 {
            polls.park(session: "s", since: polls.generation(of: "s"), until: ContinuousClock.now + .milliseconds(20)) {
                wakes.wake()
            }
        }
        // When: their deadlines pass
        try await wakes.waitFor(3)
        polls.notify("s")
        // Then: each was woken once, none by the notification
        #expect(wakes.count == 3)
        #expect(polls.count == 0)
    }
}
