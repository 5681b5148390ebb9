import AlertQueue
import Logging

/// Keeps the daily outcome counters up to date: rolls the event feed up into them (in the
/// store, `QueueStore.rollUpOutcomes`) and adds what each step counted to
/// `alertd_alert_outcomes_total`. Runs every `interval` in the background, and at once before an
/// outcomes report is read, so a report includes every event committed before it was asked for.
///
/// ```swift
/// let rollUps = OutcomeRollUps(store: store, metrics: metrics, logger: logger)
/// let task = Task { await rollUps.run() }   // for the server's life
/// try await rollUps.catchUp()              // before reading counters
/// ```
public struct OutcomeRollUps: Sendable {
    public let store: any QueueStore
    let metrics: ServiceMetrics
    let logger: Logger
    /// Events read per step (one transaction each).
    public static let step = 1000

    public init(store: any QueueStore, metrics: ServiceMetrics, logger: Logger) {
        self.store = store
        self.metrics = metrics
        self.logger = logger
    }

    /// Rolls up until a step comes back short: everything the feed shows now. How many events.
    @discardableResult
    public func catchUp() async throws -> Int {
        var counted = 0
        while !Task.isCancelled {
            let step = try await store.rollUpOutcomes(limit: Self.step)
            metrics.countOutcomes(step.tally.totals)
            counted += step.events
            if step.events < Self.step { break }
        }
        return counted
    }

    /// Catches up every `interval` until the calling task is cancelled. A failure is logged once
    /// until a step succeeds again; the counters lose nothing meanwhile (the cursor waits).
    public func run(interval: Duration = .seconds(1)) async {
        var failing = false
        while !Task.isCancelled {
            do {
                try await catchUp()
                if failing { logger.notice("outcome roll-up resumed") }
                failing = false
            } catch {
                if !failing { logger.warning("outcome roll-up failed; it will try again", metadata: ["cause": "\(error)"]) }
                failing = true
            }
            try? await Task.sleep(for: interval)
        }
    }
}
