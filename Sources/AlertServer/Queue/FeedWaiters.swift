import AlertQueue
import Dispatch
import Foundation
import Locking

/// Readers waiting in `GET /v1/events?wait=N`, held as `LongPolls` holds `next`'s polls: a small
/// record each (a wake-up closure and a time), no thread and no task. Any session's change wakes
/// every reader (`LongPolls.notify` passes it on, so local writes, other instances' NOTIFYs and
/// the change sweep all reach them); a timer wakes each at its time; shutdown wakes them all.
/// Each parked reader is woken exactly once.
///
/// ```swift
/// let generation = waiters.generation              // read before reading the page
/// if page.events.isEmpty { waiters.park(since: generation, until: time) { reason in read again } }
/// ```
public final class FeedWaiters: Sendable {
    /// Why a reader was woken.
    public enum Reason: Sendable, Equatable {
        /// Something was written since it parked: read again.
        case changed
        /// The time it parked until came.
        case time
        /// The server is stopping: answer now.
        case closed
    }

    public typealias Wake = @Sendable (Reason) -> Void

    private struct Due: Comparable {
        let instant: Date
        let id: UInt64

        static func < (a: Self, b: Self) -> Bool { a.instant < b.instant }
    }

    private struct Waiter {
        let wake: Wake
        let time: Date
        /// False for a reader that waits for its time only (see `park`).
        let onChange: Bool
    }

    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
        /// Entries stay after their reader was woken by a change, and are skipped when due.
        var times = MinHeap<Due>()
        var armedFor: Date?
        var nextID: UInt64 = 0
        var closed = false

        /// Drops the times of readers a change already woke once they outnumber the parked
        /// readers: a reader woken and parked again at every write would otherwise leave one
        /// behind per write until its time came.
        mutating func compact() {
            guard times.count > 2 * waiters.count + 64 else { return }
            times = MinHeap()
            for (id, waiter) in waiters { times.insert(Due(instant: waiter.time, id: id)) }
        }
    }

    private let state = Locked(State())
    private let clock: any AlertClock
    private let timer: Locked<(any AlertTimer)?> = Locked(nil)
    /// The most readers parked at once; past it `park` refuses (the handler answers 503 `busy`).
    public let limit: Int

    /// - Parameters:
    ///   - clock: what times are read on.
    ///   - limit: the most readers parked at once.
    public init(clock: any AlertClock = SystemClock(), limit: Int = 1_000) {
        self.clock = clock
        self.limit = limit
        let made = clock.makeTimer { [weak self] in
            guard let self else { return }
            expire(now: self.clock.now())
        }
        timer.withLock { $0 = made }
    }

    deinit { timer.withLock { $0?.cancel() } }

    /// Readers parked now.
    public var count: Int { state.withLock { $0.waiters.count } }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Times kept for the timer, those of readers a change already woke included.
    var pendingTimes: Int { state.withLock { $0.times.count } }

    /// Changes whenever anything is notified.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Calls `wake` once: `.changed` on a change after `generation` (unless `onChange` is false:
    /// a reader that just read after a change and found nothing waits a moment before it reads
    /// again, so a burst of writes costs it one read), `.time` at `time`, `.closed` at shutdown —
    /// at once (on a Dispatch thread) if one of those already happened. False, and `wake` never
    /// called, when `limit` readers are parked already.
    public func park(since generation: UInt64, until time: Date, onChange: Bool = true, wake: @escaping Wake) -> Bool {
        enum Outcome { case parked, full, woken(Reason) }
        let outcome = state.withLock { state -> Outcome in
            if state.closed { return .woken(.closed) }
            if onChange, state.generation != generation { return .woken(.changed) }
            if time <= clock.now() { return .woken(.time) }
            guard state.waiters.count < limit else { return .full }
            state.compact()
            state.nextID += 1
            state.waiters[state.nextID] = Waiter(wake: wake, time: time, onChange: onChange)
            state.times.insert(Due(instant: time, id: state.nextID))
            if state.armedFor.map({ time < $0 }) ?? true { arm(for: time, in: &state) }
            return .parked
        }
        switch outcome {
        case .parked: return true
        case .full: return false
        case .woken(let reason):
            Self.wakeElsewhere { wake(reason) }
            return true
        }
    }

    /// Wakes every parked reader: something was written.
    public func notify() {
        let woken = state.withLock { state -> [Wake] in
            state.generation &+= 1
            guard !state.waiters.isEmpty else { return [] }
            var woken: [Wake] = []
            state.waiters = state.waiters.filter { _, waiter in
                if waiter.onChange { woken.append(waiter.wake) }
                return !waiter.onChange
            }
            return woken
        }
        for wake in woken { Self.wakeElsewhere { wake(.changed) } }
    }

    /// Wakes every parked reader and lets no new one park (shutdown).
    public func close() {
        timer.withLock { $0?.cancel() }
        let woken = state.withLock { state -> [Wake] in
            state.closed = true
            state.times = MinHeap()
            defer { state.waiters = [:] }
            return state.waiters.values.map(\.wake)
        }
        for wake in woken { Self.wakeElsewhere { wake(.closed) } }
    }

    /// Wakes the readers whose time has come, and sets the timer for the next.
    private func expire(now: Date) {
        let woken = state.withLock { state -> [Wake] in
            var due: [Wake] = []
            while let first = state.times.first, first.instant <= now {
                state.times.removeFirst()
                if let waiter = state.waiters.removeValue(forKey: first.id) { due.append(waiter.wake) }
            }
            state.armedFor = nil
            while let first = state.times.first, state.waiters[first.id] == nil { state.times.removeFirst() }
            if let next = state.times.first { arm(for: next.instant, in: &state) }
            return due
        }
        for wake in woken { Self.wakeElsewhere { wake(.time) } }
    }

    private func arm(for time: Date, in state: inout State) {
        state.armedFor = time
        timer.withLock { $0?.schedule(at: time, leeway: .milliseconds(1)) }
    }

    /// A reader's look reads the store: never on the writer's thread that notified, whose own
    /// answer would wait for it.
    private static func wakeElsewhere(_ wake: @escaping @Sendable () -> Void) {
        wakers.async(execute: wake)
    }

    private static let wakers = DispatchQueue(label: "alertd.feed-waiters.wake", qos: .userInitiated, attributes: .concurrent)
}
