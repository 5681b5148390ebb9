import AlertQueue
import AlertSpec
import Dispatch
import Foundation
import Locking
import TestExecutors
import TestClocks
import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Where a parked long-poll's wake-up runs: a notification runs it on the notifying thread (so an
// ack's wake-up looks without a thread hop), everything else on other threads, and a waiter is
// woken exactly once: by a notification, its deadline, shutdown, or whoever claimed it.

@Suite("LongPolls", .ownThread)
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

        /// The tickets handed to the waiters woken, in order.
        private let handed = Locked<[String]>([])

        /// A wake-up with an item handed over (or nil).
        func wake(with delivered: QueueItem?) {
            if let delivered { handed.withLock { $0.append(delivered.ticket) } }
            wake()
        }

        var tickets: [String] { handed.withLock { $0 } }

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
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let wakes = Wakes()
        let later = clock.now() + 30
        for session in ["s", "s", "t"] {
            polls.park(session: session, since: polls.generation(of: session), until: later) { _ in wakes.wake() }
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
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let wakes = Wakes()
        let generation = polls.generation(of: "s")
        polls.notify("s")
        // When: the look parks with the old generation
        wakes.during {
            polls.park(session: "s", since: generation, until: clock.now() + 30) { _ in wakes.wake() }
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
        // Given: three waiters whose deadlines are near
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let wakes = Wakes()
        for _ in 0..<3 {
            polls.park(session: "s", since: polls.generation(of: "s"), until: clock.now() + 0.02) { _ in
                wakes.wake()
            }
        }
        // When: their deadlines pass
        clock.advance(by: 0.02)
        try await wakes.waitFor(3)
        polls.notify("s")
        // Then: each was woken once, none by the notification
        #expect(wakes.count == 3)
        #expect(polls.count == 0)
    }

    @Test("a deadline earlier than every other parked is kept, not left for the later ones")
    func earlierDeadlineParkedLater() async throws {
        // Given: a waiter with a deadline an hour away (the timer is set for it)
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let late = Wakes(), early = Wakes()
        polls.park(session: "late", since: polls.generation(of: "late"), until: clock.now() + 3600) { _ in late.wake() }
        // When: another parks with a deadline 30 ms away
        polls.park(session: "early", since: polls.generation(of: "early"), until: clock.now() + 0.03) { _ in early.wake() }
        // Then: that one is not woken before its deadline, and is woken at it (long before the
        // first one's); the first still waits
        clock.advance(by: 0.029)
        #expect(early.count == 0)
        clock.advance(by: 0.002)
        try await early.waitFor(1)
        #expect(early.count == 1)
        #expect(late.count == 0)
        #expect(polls.count == 1)
    }

    @Test("the deadlines of waiters a notification woke do not hold up the deadlines after them")
    func notifiedWaitersDeadlinesSkipped() async throws {
        // Given: waiters of session s with deadlines 20 ms away, woken at once by a notification
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let notified = Wakes(), later = Wakes()
        for _ in 0..<3 {
            polls.park(session: "s", since: polls.generation(of: "s"), until: clock.now() + 0.02) { _ in
                notified.wake()
            }
        }
        polls.notify("s")
        // When: waiters of t park with deadlines 40 and 80 ms away
        for milliseconds in [40, 80] {
            polls.park(session: "t", since: polls.generation(of: "t"), until: clock.now() + Double(milliseconds) / 1000) { _ in
                later.wake()
            }
        }
        // Then: both are woken by their deadlines; s's waiters were woken once, by the notification
        clock.advance(by: 0.041)
        clock.advance(by: 0.041)
        try await later.waitFor(2)
        #expect(later.count == 2)
        #expect(notified.count == 3)
        #expect(polls.count == 0)
    }

    @Test("claiming takes the longest-waiting waiter of the session out: woken once, by the claimer, with what it hands")
    func claimHandsOver() async throws {
        // Given: two waiters of session s, parked in turn, and one of t
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let first = Wakes(), second = Wakes(), other = Wakes()
        let later = clock.now() + 30
        for (session, wakes) in [("s", first), ("s", second), ("t", other)] {
            polls.park(session: session, since: polls.generation(of: session), until: later) { wakes.wake(with: $0) }
        }
        // When: an enqueue claims a waiter of s
        let claimed = try #require(polls.claim("s"))
        // Then: it is the first one, no longer counted, and a notification of s wakes only the other
        #expect(polls.count == 2)
        polls.notify("s")
        #expect(first.count == 0)
        #expect(second.count == 1)
        #expect(second.tickets.isEmpty)
        // When: the claimer hands it the item its step delivered
        first.during { claimed(Self.item("T-1")) }
        // Then: it was woken once, on the claimer's thread, with that item; t's waiter still waits
        #expect(first.count == 1)
        #expect(first.inline == 1)
        #expect(first.tickets == ["T-1"])
        #expect(other.count == 0)
        #expect(polls.count == 1)
        // And a session with no waiter left has none to claim
        #expect(polls.claim("s") == nil)
        #expect(polls.claim("nobody") == nil)
    }

    @Test("a claimed waiter is not woken by its deadline or by shutdown: only by its claimer")
    func claimedWaiterKeptFromDeadlineAndShutdown() async throws {
        // Given: a claimed waiter whose deadline is a second away, and an unclaimed one with the
        // same deadline (one firing of the timer reaches both)
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let claimedWakes = Wakes(), unclaimed = Wakes()
        let soon = clock.now() + 1
        polls.park(session: "s", since: polls.generation(of: "s"), until: soon) { claimedWakes.wake(with: $0) }
        let claimed = try #require(polls.claim("s"))
        polls.park(session: "t", since: polls.generation(of: "t"), until: soon) { unclaimed.wake(with: $0) }
        // When: the deadline passes (the unclaimed waiter is woken by it), then the server shuts down
        clock.advance(by: 1)
        try await unclaimed.waitFor(1)
        polls.close()
        // Then: the claimed waiter was not woken
        #expect(claimedWakes.count == 0)
        #expect(unclaimed.count == 1)
        // When: its claimer wakes it, with nothing handed (its step delivered nothing)
        claimed(nil)
        // Then: it is woken once, to look for itself
        #expect(claimedWakes.count == 1)
        #expect(claimedWakes.tickets.isEmpty)
    }

    /// An item to hand over.
    static func item(_ ticket: String) -> QueueItem {
        QueueItem(
            ticket: ticket, session: "s", content: .alert(id: "app/a", parameters: [:]), priority: 500, lane: .modal,
            dedupeKey: "app/a", state: .presenting, sequence: 1, enqueuedAt: Date(), expiresAt: nil, deliveries: 1,
            leaseUntil: nil, atHead: false)
    }
}
