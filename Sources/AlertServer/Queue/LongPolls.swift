import Dispatch
import Synchronization

/// Requests waiting in `GET …/next?wait=N`, without a thread each: every waiter is a small
/// record (a continuation and a deadline) keyed by session. An enqueue, ack, cancel or hold
/// release for the session wakes its waiters at once; a sweeper wakes those whose deadline has
/// passed; shutdown wakes them all.
///
/// ```swift
/// let generation = polls.generation(of: session)         // read before looking at the queue
/// if let item = try await store.next(…) { return item }
/// await polls.wait(session: session, since: generation, until: deadline)
/// ```
/// Reading the generation first closes the race between "the queue was empty" and "the
/// waiter was registered": a notification in between makes `wait` return at once.
public final class LongPolls: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        let deadline: ContinuousClock.Instant
    }

    private struct State {
        /// Notification counters by hash bucket of the session: bounded memory; two sessions
        /// sharing a bucket only cause a spurious wake-up, which callers handle by looking again.
        var generations = [UInt64](repeating: 0, count: 4096)
        var waiters: [String: [UInt64: Waiter]] = [:]
        var nextID: UInt64 = 0
        var count = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// Checks deadlines; a Dispatch timer rather than a task, so it fires whatever the
    /// cooperative thread pool is doing. Set once in `init`; Dispatch sources are thread-safe,
    /// they are just not marked `Sendable` on Linux.
    nonisolated(unsafe) private let sweeper: any DispatchSourceTimer

    /// - Parameter tick: how often deadlines are checked (the precision of `wait`'s timeout).
    public init(tick: Duration = .milliseconds(50)) {
        sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "alertd.long-polls"))
        let milliseconds = Int(tick.components.seconds * 1000 + tick.components.attoseconds / 1_000_000_000_000_000)
        sweeper.schedule(deadline: .now(), repeating: .milliseconds(max(1, milliseconds)))
        sweeper.setEventHandler { [weak self] in self?.expire(now: .now) }
        sweeper.resume()
    }

    deinit { sweeper.cancel() }

    /// Waiters registered now.
    public var count: Int { state.withLock { $0.count } }

    /// Changes whenever `session` is notified.
    public func generation(of session: String) -> UInt64 {
        state.withLock { $0.generations[Self.bucket(session)] }
    }

    /// Returns when `session` is notified after `generation`, at `deadline`, or at shutdown —
    /// at once if one of those already happened.
    public func wait(session: String, since generation: UInt64, until deadline: ContinuousClock.Instant) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                guard !state.closed, state.generations[Self.bucket(session)] == generation, deadline > .now else { return true }
                state.nextID += 1
                state.waiters[session, default: [:]][state.nextID] = Waiter(continuation: continuation, deadline: deadline)
                state.count += 1
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Wakes every waiter of `session`.
    public func notify(_ session: String) {
        let woken = state.withLock { state -> [Waiter] in
            state.generations[Self.bucket(session)] &+= 1
            let waiters = state.waiters.removeValue(forKey: session).map { Array($0.values) } ?? []
            state.count -= waiters.count
            return waiters
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// Wakes every waiter and lets no new one wait (shutdown).
    public func close() {
        sweeper.cancel()
        let woken = state.withLock { state -> [Waiter] in
            state.closed = true
            defer { state.waiters = [:]; state.count = 0 }
            return state.waiters.values.flatMap(\.values)
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    private func expire(now: ContinuousClock.Instant) {
        let woken = state.withLock { state -> [Waiter] in
            var due: [Waiter] = []
            for (session, waiters) in state.waiters {
                let expired = waiters.filter { $0.value.deadline <= now }
                guard !expired.isEmpty else { continue }
                due += expired.values
                let left = waiters.filter { $0.value.deadline > now }
                state.waiters[session] = left.isEmpty ? nil : left
            }
            state.count -= due.count
            return due
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    private static func bucket(_ session: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike hashValue
        for byte in session.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % 4096)
    }
}
