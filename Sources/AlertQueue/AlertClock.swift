import Dispatch
import Foundation

/// The one source of the current time for the queue and the server, and of the timers that go
/// off by it (long-poll deadlines, the end of a hold). Injected everywhere time is read, so that
/// tests move time forward by hand instead of sleeping.
///
/// ```swift
/// let clock: any AlertClock = SystemClock()
/// let timer = clock.makeTimer { print("due") }
/// timer.schedule(at: clock.now().addingTimeInterval(30), leeway: .milliseconds(2))
/// ```
public protocol AlertClock: Sendable {
    /// The current time.
    func now() -> Date

    /// A timer that calls `fire` (on a thread of the clock's choosing) each time the time it is
    /// set for comes. It is set with `schedule`, and fires once per setting.
    func makeTimer(_ fire: @escaping @Sendable () -> Void) -> any AlertTimer
}

/// A timer of an `AlertClock`.
public protocol AlertTimer: Sendable {
    /// Fires once when `deadline` comes (at once if it has passed), at most `leeway` late;
    /// replaces any earlier setting.
    func schedule(at deadline: Date, leeway: Duration)

    /// Fires no more.
    func cancel()
}

/// The system's clock: `Date()` for now, Dispatch timers on a queue of their own.
public struct SystemClock: AlertClock {
    public init() {}

    public func now() -> Date { Date() }

    public func makeTimer(_ fire: @escaping @Sendable () -> Void) -> any AlertTimer {
        DispatchTimer(fire)
    }
}

/// A Dispatch timer source: it fires whatever Swift's cooperative thread pool is doing. Set once
/// in `init`; Dispatch sources are thread-safe, they are just not marked `Sendable` on Linux.
private final class DispatchTimer: AlertTimer {
    nonisolated(unsafe) private let source: any DispatchSourceTimer

    init(_ fire: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "alertd.timer"))
        source.setEventHandler(handler: fire)
        source.resume()
    }

    deinit { source.cancel() }

    func schedule(at deadline: Date, leeway: Duration) {
        let wait = max(0, deadline.timeIntervalSinceNow)
        source.schedule(deadline: .now() + .nanoseconds(Int(wait * 1e9)), repeating: .never, leeway: Self.interval(leeway))
    }

    func cancel() { source.cancel() }

    /// `duration` as Dispatch counts it, to the nanosecond.
    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
