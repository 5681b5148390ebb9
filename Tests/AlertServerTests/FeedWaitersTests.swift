import AlertQueue
import Foundation
import Locking
import TestClocks
import Testing

@testable import AlertServer

// The event feed's waiting readers: woken once each, by a change (unless they wait for their
// time only), at their time on the injected clock, or at shutdown; never more than the limit.

@Suite("FeedWaiters")
struct FeedWaitersTests {
    /// The reasons readers were woken with, in order.
    final class Woken: Sendable {
        private let reasons = Locked<[FeedWaiters.Reason]>([])

        func record(_ reason: FeedWaiters.Reason) { reasons.withLock { $0.append(reason) } }

        var all: [FeedWaiters.Reason] { reasons.withLock { $0 } }

        /// Waits (at most 10 s) until `count` readers were woken.
        func waitFor(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while all.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        }
    }

    @Test("a change wakes every reader that heeds changes, once; one that waits for its time stays")
    func changeWakesReaders() async throws {
        let clock = ManualClock()
        let waiters = FeedWaiters(clock: clock)
        let woken = Woken()
        let generation = waiters.generation
        let until = clock.now().addingTimeInterval(30)
        #expect(waiters.park(since: generation, until: until) { woken.record($0) })
        #expect(waiters.park(since: generation, until: until) { woken.record($0) })
        #expect(waiters.park(since: generation, until: until, onChange: false) { woken.record($0) })

        waiters.notify()
        waiters.notify()
        try await woken.waitFor(2)
        #expect(woken.all == [.changed, .changed])
        #expect(waiters.count == 1)

        // The one waiting for its time is woken at it
        clock.advance(by: 30)
        try await woken.waitFor(3)
        #expect(woken.all == [.changed, .changed, .time])
        #expect(waiters.count == 0)
    }

    @Test("a change between the read and the park wakes the reader at once")
    func changeBeforeParking() async throws {
        let clock = ManualClock()
        let waiters = FeedWaiters(clock: clock)
        let woken = Woken()
        let generation = waiters.generation
        waiters.notify()
        #expect(waiters.park(since: generation, until: clock.now().addingTimeInterval(30)) { woken.record($0) })
        try await woken.waitFor(1)
        #expect(woken.all == [.changed])
        #expect(waiters.count == 0)
    }

    @Test("past the limit a reader is refused and never woken; shutdown wakes the others and refuses new ones")
    func limitAndClose() async throws {
        let clock = ManualClock()
        let waiters = FeedWaiters(clock: clock, limit: 2)
        let woken = Woken()
        let until = clock.now().addingTimeInterval(30)
        #expect(waiters.park(since: waiters.generation, until: until) { woken.record($0) })
        #expect(waiters.park(since: waiters.generation, until: until) { woken.record($0) })
        #expect(!waiters.park(since: waiters.generation, until: until) { woken.record($0) })

        waiters.close()
        try await woken.waitFor(2)
        #expect(woken.all == [.closed, .closed])
        #expect(waiters.park(since: waiters.generation, until: until) { woken.record($0) })
        try await woken.waitFor(3)
        #expect(woken.all == [.closed, .closed, .closed])
        #expect(waiters.count == 0)
    }

    @Test("readers parked again and again at every change leave no times behind")
    func timesStayBounded() async throws {
        let clock = ManualClock()
        let waiters = FeedWaiters(clock: clock)
        let woken = Woken()
        for round in 1...1_000 {
            #expect(waiters.park(since: waiters.generation, until: clock.now().addingTimeInterval(30)) { woken.record($0) })
            waiters.notify()
            try await woken.waitFor(round)
        }
        #expect(waiters.pendingTimes <= 2 * waiters.count + 65)
    }

    @Test("LongPolls passes every notification on to the feed's readers")
    func longPollsWakeFeed() async throws {
        let clock = ManualClock()
        let polls = LongPolls(clock: clock)
        let woken = Woken()
        let until = clock.now().addingTimeInterval(30)
        #expect(polls.feed.park(since: polls.feed.generation, until: until) { woken.record($0) })
        polls.notify("any-session")
        #expect(polls.feed.park(since: polls.feed.generation, until: until) { woken.record($0) })
        polls.notifyAll()
        #expect(polls.feed.park(since: polls.feed.generation, until: until) { woken.record($0) })
        polls.close()
        try await woken.waitFor(3)
        #expect(woken.all.filter { $0 == .changed }.count == 2)
        #expect(woken.all.filter { $0 == .closed }.count == 1)
    }
}
