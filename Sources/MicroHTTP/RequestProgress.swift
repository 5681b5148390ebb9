import Synchronization

/// Where a connection's current request stands, for its deadlines: waiting for a head, reading
/// a body, or being handled (no deadline: a suspended long-poll waits for us, not the client).
///
/// One atomic word holds the phase and a generation that every change bumps, so the deadline
/// reaper can cut a request only if it is still in the phase it judged (`cut(ifStill:)`), and
/// the worker learns when a request was cut under it.
final class RequestProgress: Sendable {
    enum Phase: UInt64 {
        case awaitingHead = 0, body, handling, cut
    }

    /// `generation << 2 | phase`.
    private let word = Atomic<UInt64>(0)
    /// When the body phase began (monotonic nanoseconds), set before the phase.
    private let bodyStart = Atomic<UInt64>(0)
    /// Body bytes received in the body phase.
    private let bodyBytes = Atomic<Int>(0)

    /// The phase and generation now, as one value for `cut(ifStill:)`.
    var now: (phase: Phase, generation: UInt64, word: UInt64) {
        let word = word.load(ordering: .acquiring)
        return (Phase(rawValue: word & 3)!, word >> 2, word)
    }

    /// When the body began and how much of it arrived (read after `now` says `.body`).
    var body: (start: UInt64, received: Int) {
        (bodyStart.load(ordering: .relaxed), bodyBytes.load(ordering: .relaxed))
    }

    /// The worker moves to `phase`; false when the request was cut (the connection is closing).
    @discardableResult
    func enter(_ phase: Phase, at time: UInt64 = 0) -> Bool {
        if phase == .body {
            bodyStart.store(time, ordering: .relaxed)
            bodyBytes.store(0, ordering: .relaxed)
        }
        var old = word.load(ordering: .relaxed)
        while true {
            if old & 3 == Phase.cut.rawValue { return false }
            let new = ((old >> 2) &+ 1) << 2 | phase.rawValue
            let (exchanged, current) = word.compareExchange(
                expected: old, desired: new, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
            if exchanged { return true }
            old = current
        }
    }

    /// Body bytes arrived.
    func received(_ count: Int) {
        bodyBytes.add(count, ordering: .relaxed)
    }

    /// The reaper cuts the request if it is still where `word` saw it.
    func cut(ifStill word: UInt64) -> Bool {
        self.word.compareExchange(
            expected: word, desired: word & ~3 | Phase.cut.rawValue, ordering: .acquiringAndReleasing
        ).exchanged
    }
}
