import AlertQueue
import Dispatch
import Foundation
import Locking

/// A clock that moves only when a test says so: leases, TTLs, holds and long-poll deadlines
/// come due at `advance`, not after a sleep.
///
/// ```swift
/// let clock = ManualClock()
/// let queue = QueueServices(store: store, credentials: credentials, clock: clock)
/// // … a long-poll waits 30 s …
/// clock.advance(by: 30)   // its deadline comes: it answers 204
/// ```
public final class ManualClock: AlertClock {
    private struct State {
        var now: Date
        var timers: [ObjectIdentifier: ManualTimer] = [:]
    }

    private let state: Locked<State>

    /// - Parameter start: the time it shows until advanced.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Locked(State(now: start))
    }

    public func now() -> Date { state.withLock { $0.now } }

    public func makeTimer(_ fire: @escaping @Sendable () -> Void) -> any AlertTimer {
        let timer = ManualTimer(clock: self, fire: fire)
        state.withLock { $0.timers[ObjectIdentifier(timer)] = timer }
        return timer
    }

    /// Moves time forward by `seconds` and fires, on this thread, every timer whose setting
    /// came due.
    public func advance(by seconds: TimeInterval) {
        let (now, timers) = state.withLock { state in
            state.now += seconds
            return (state.now, Array(state.timers.values))
        }
        for timer in timers where timer.takeDue(at: now) { timer.fire() }
    }

    fileprivate func forget(_ timer: ManualTimer) {
        _ = state.withLock { $0.timers.removeValue(forKey: ObjectIdentifier(timer)) }
    }
}

/// A timer of `ManualClock`: due when the clock reaches its setting.
private final class ManualTimer: AlertTimer, @unchecked Sendable {  // `clock` is set once, in init
    private weak var clock: ManualClock?
    let fire: @Sendable () -> Void
    private let deadline = Locked<Date?>(nil)

    init(clock: ManualClock, fire: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.fire = fire
    }

    func schedule(at deadline: Date, leeway: Duration) {
        self.deadline.withLock { $0 = deadline }
        // Already due: fired off the caller's thread, which may hold its own locks.
        if let clock, deadline <= clock.now() {
            DispatchQueue.global().async { [self] in
                if takeDue(at: clock.now()) { fire() }
            }
        }
    }

    func cancel() {
        deadline.withLock { $0 = nil }
        clock?.forget(self)
    }

    /// Clears the setting and says so, if it is due at `now`.
    func takeDue(at now: Date) -> Bool {
        deadline.withLock { deadline in
            guard let set = deadline, set <= now else { return false }
            deadline = nil
            return true
        }
    }
}
