import AlertQueue
import Dispatch
import Foundation
import Locking
import MicroHTTP

/// Requests waiting in `GET …/next?wait=N`, with neither a thread nor a task each: a waiter is
/// a small record (a wake-up closure and a deadline) keyed by session. An enqueue, ack, cancel
/// or hold release for the session wakes its waiters at once; a timer wakes each at its
/// deadline; shutdown wakes them all. Each waiter is woken exactly once.
///
/// ```swift
/// let generation = polls.generation(of: session)         // read before looking at the queue
/// if let item = try await store.next(…) { return item }
/// polls.park(session: session, since: generation, until: deadline) { look again }
/// ```
/// Reading the generation first closes the race between "the queue was empty" and "the
/// waiter was registered": a notification in between wakes the waiter at once.
///
/// An enqueue may also `claim` a waiter and hand it the item delivered for it (see
/// `PollHandoff`), so that the poll needs no step of its own. Deadlines are read on the
/// injected clock.
public final class LongPolls: Sendable {
    public typealias Wake = @Sendable () -> Void
    /// Wakes a waiter: with the item delivered to it, or nil, for it to look at the queue.
    public typealias Look = @Sendable (_ delivered: QueueItem?) -> Void

    private struct Waiter {
        let id: UInt64
        let wake: Look
    }

    /// When a waiter's deadline comes. Entries stay after their waiter was woken by a
    /// notification or claimed, and are skipped when their time comes: no search on every
    /// wake-up.
    private struct Deadline: Comparable {
        let instant: Date
        let id: UInt64
        let session: String

        static func < (a: Self, b: Self) -> Bool { a.instant < b.instant }
        static func == (a: Self, b: Self) -> Bool { a.instant == b.instant && a.id == b.id }
    }

    private struct State {
        /// Notification counters by hash bucket of the session: bounded memory; two sessions
        /// sharing a bucket only cause a spurious wake-up, which callers handle by looking again.
        var generations = [UInt64](repeating: 0, count: 4096)
        /// Erasure counters by the same buckets: a poll woken after its session was erased
        /// answers 204 instead of waiting on (a shared bucket only answers another poll early).
        var erasures = [UInt64](repeating: 0, count: 4096)
        var waiters: [String: [Waiter]] = [:]
        var deadlines = MinHeap<Deadline>()
        /// When the timer is set to fire; nil while it is not set.
        var armedFor: Date?
        var nextID: UInt64 = 0
        var count = 0
        var closed = false

        /// Removes and returns every waiter of `session`.
        mutating func take(_ session: String) -> [Waiter] {
            let taken = waiters.removeValue(forKey: session) ?? []
            count -= taken.count
            return taken
        }

        /// Removes and returns waiter `id` of `session`, if it still waits.
        mutating func take(_ id: UInt64, of session: String) -> Waiter? {
            guard var list = waiters[session], let index = list.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = list.remove(at: index)
            waiters[session] = list.isEmpty ? nil : list
            count -= 1
            return waiter
        }

        /// Drops the earliest deadlines whose waiter a notification already woke, and returns
        /// the earliest one still waited for.
        mutating func firstLiveDeadline() -> Date? {
            while let first = deadlines.first {
                if waiters[first.session]?.contains(where: { $0.id == first.id }) == true { return first.instant }
                deadlines.removeFirst()
            }
            return nil
        }
    }

    private let state = Locked(State())
    private let clock: any AlertClock
    /// Fires at the earliest deadline still waited for, and is set again for the next one; not
    /// set while no waiter waits. Deadlines then come due a few at a time, spread as the polls
    /// came, not in bursts at the ticks of a periodic sweep (which, with 10,000 polls waiting,
    /// delayed the enqueues' wake-ups behind them). Set once in `init`.
    private let timer: Locked<(any AlertTimer)?> = Locked(nil)
    /// How late past its deadline a waiter may be woken, so that deadlines close together are
    /// served by one firing.
    private let leeway: Duration
    /// Readers of the event feed: every notification here wakes them too, whatever the session.
    public let feed: FeedWaiters

    /// - Parameters:
    ///   - clock: what deadlines are read on.
    ///   - leeway: how late past its deadline a waiter may be woken.
    ///   - feed: the event feed's readers; by default a new registry on `clock`.
    public init(clock: any AlertClock = SystemClock(), leeway: Duration = .milliseconds(2), feed: FeedWaiters? = nil) {
        self.clock = clock
        self.leeway = leeway
        self.feed = feed ?? FeedWaiters(clock: clock)
        let made = clock.makeTimer { [weak self] in
            guard let self else { return }
            expire(now: self.clock.now())
        }
        timer.withLock { $0 = made }
    }

    deinit { timer.withLock { $0?.cancel() } }

    /// Waiters registered now.
    public var count: Int { state.withLock { $0.count } }

    /// The sessions with a poll waiting now (a campaign serves them first).
    public var waitingSessions: [String] { state.withLock { Array($0.waiters.keys) } }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Changes whenever `session` is notified.
    public func generation(of session: String) -> UInt64 {
        state.withLock { $0.generations[Self.bucket(session)] }
    }

    /// Calls `wake` once, when `session` is notified after `generation`, at `deadline`, or at
    /// shutdown — at once if one of those already happened — with nil; or with an item, by the
    /// enqueue that claimed the waiter (`claim`). A notification runs `wake` on the
    /// notifying thread, so it may start its work there (`Task.immediate`): an ack that wakes a
    /// poll has it look without a thread hop. Deadlines and shutdown wake many
    /// waiters at once: those run `wake` on Dispatch's threads, in parallel. So does a `park`
    /// that comes too late, never on the parking thread: a look that parks again and again while
    /// its session keeps changing would otherwise nest each new look in the last one's stack.
    public func park(session: String, since generation: UInt64, until deadline: Date, wake: @escaping Look) {
        let parked = state.withLock { state -> Bool in
            guard !state.closed, state.generations[Self.bucket(session)] == generation, deadline > clock.now() else { return false }
            state.nextID += 1
            state.waiters[session, default: []].append(Waiter(id: state.nextID, wake: wake))
            state.deadlines.insert(Deadline(instant: deadline, id: state.nextID, session: session))
            state.count += 1
            if state.armedFor.map({ deadline < $0 }) ?? true { arm(for: deadline, in: &state) }
            return true
        }
        if !parked { Self.wakeElsewhere { wake(nil) } }
    }

    /// Wakes every waiter of `session`, on this thread.
    public func notify(_ session: String) {
        let woken = state.withLock { state -> [Waiter] in
            state.generations[Self.bucket(session)] &+= 1
            return state.take(session)
        }
        feed.notify()
        for waiter in woken { waiter.wake(nil) }
    }

    /// Changes whenever `session` is erased.
    public func erasures(of session: String) -> UInt64 {
        state.withLock { $0.erasures[Self.bucket(session)] }
    }

    /// `notify` for a session that was erased: its waiters, woken, answer at once.
    public func erased(_ session: String) {
        state.withLock { $0.erasures[Self.bucket(session)] &+= 1 }
        notify(session)
    }

    /// Takes the longest-waiting waiter of `session` out of the registry, and returns its
    /// `wake`, which the caller must call once: with the item it delivered to the waiter, or
    /// nil. Meanwhile no notification, deadline or shutdown wakes it. Nil when none waits.
    public func claim(_ session: String) -> Look? {
        state.withLock { state -> Look? in
            guard let first = state.waiters[session]?.first else { return nil }
            return state.take(first.id, of: session)?.wake
        }
    }

    /// Runs `body`; the polls it answers through looks it calls (`claim`) reach their
    /// connections together when it returns, not one by one (see `ResumeBatch`).
    public func answeringTogether<R>(_ body: () throws -> R) rethrows -> R {
        try ResumeBatch.collect(body)
    }

    /// Wakes every waiter (their sessions may all have changed: a store lost track of changes).
    public func notifyAll() {
        let woken = state.withLock { state -> [Waiter] in
            for index in state.generations.indices { state.generations[index] &+= 1 }
            defer { state.waiters = [:]; state.count = 0 }
            return state.waiters.values.flatMap { $0 }
        }
        feed.notify()
        wakeInParallel(woken)
    }

    /// Wakes every waiter and lets no new one wait (shutdown).
    public func close() {
        feed.close()
        timer.withLock { $0?.cancel() }
        let woken = state.withLock { state -> [Waiter] in
            state.closed = true
            state.deadlines = MinHeap()
            defer { state.waiters = [:]; state.count = 0 }
            return state.waiters.values.flatMap { $0 }
        }
        wakeInParallel(woken)
    }

    /// Wakes the waiters whose deadline has come (the earliest deadlines only, never a scan),
    /// and sets the timer for the next.
    private func expire(now: Date) {
        let woken = state.withLock { state -> [Waiter] in
            var due: [Waiter] = []
            while let first = state.deadlines.first, first.instant <= now {
                state.deadlines.removeFirst()
                if let waiter = state.take(first.id, of: first.session) { due.append(waiter) }
            }
            state.armedFor = nil
            if let next = state.firstLiveDeadline() { arm(for: next, in: &state) }
            return due
        }
        wakeInParallel(woken)
    }

    /// Sets the timer to fire at `deadline` (under the state's lock, so that the last setting
    /// made is the one for the earliest deadline).
    private func arm(for deadline: Date, in state: inout State) {
        state.armedFor = deadline
        timer.withLock { $0?.schedule(at: deadline, leeway: leeway) }
    }

    /// Runs each waiter's `wake` on a Dispatch thread: thousands may be due at once.
    private func wakeInParallel(_ waiters: [Waiter]) {
        for waiter in waiters { Self.wakeElsewhere { waiter.wake(nil) } }
    }

    /// Runs `wake` on a Dispatch thread, not on this one's stack.
    private static func wakeElsewhere(_ wake: @escaping Wake) {
        wakers.async(execute: wake)
    }

    private static let wakers = DispatchQueue(label: "alertd.long-polls.wake", qos: .userInitiated, attributes: .concurrent)

    private static func bucket(_ session: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike hashValue
        for byte in session.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % 4096)
    }
}

/// A binary min-heap: the smallest element first, insert and removal in O(log n).
struct MinHeap<Element: Comparable> {
    private var elements: [Element] = []

    var first: Element? { elements.first }

    var count: Int { elements.count }

    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func removeFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let first = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < elements.count, elements[left] < elements[smallest] { smallest = left }
            if right < elements.count, elements[right] < elements[smallest] { smallest = right }
            guard smallest != parent else { break }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
