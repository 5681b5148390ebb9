import AlertQueue

/// Wakes this instance's long-polls when another instance writes to the shared store.
///
/// Two paths, one for speed and one for certainty:
/// - the store's push (`QueueChangeFeed.listen`, PostgreSQL's LISTEN/NOTIFY): `.session(id)`
///   wakes the session's waiters, `.all` (listening again after a lost connection) wakes every
///   waiter;
/// - a sweep every `sweepInterval` (`changedSessions(since:)`) wakes the sessions written since
///   the previous sweep, covering a notification lost on the way.
///
/// A woken poll looks at the store again, so a change heard twice (its own instance's write,
/// the push, and the sweep) costs a look and nothing else.
///
/// ```swift
/// let wakeups = StoreWakeups(feed: postgresStore, polls: services.polls)
/// let task = Task { await wakeups.run() }   // for the server's life
/// task.cancel()                              // at shutdown
/// ```
public struct StoreWakeups<Feed: QueueChangeFeed>: Sendable {
    public let feed: Feed
    public let polls: LongPolls
    public let sweepInterval: Duration
    /// Told when the sweep finds the store unreachable (`false`) and when it answers again
    /// (`true`): once per change, for the log.
    public let report: @Sendable (_ reachable: Bool) async -> Void

    public init(
        feed: Feed, polls: LongPolls, sweepInterval: Duration = .milliseconds(500),
        report: @escaping @Sendable (_ reachable: Bool) async -> Void = { _ in }
    ) {
        self.feed = feed
        self.polls = polls
        self.sweepInterval = sweepInterval
        self.report = report
    }

    /// Listens and sweeps until the calling task is cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await feed.listen { [polls] change in Self.deliver(change, to: polls) } }
            group.addTask { await sweep() }
        }
    }

    /// Passes one change on to the waiting long-polls.
    static func deliver(_ change: QueueChange, to polls: LongPolls) {
        switch change {
        case .session(let session): polls.notify(session)
        case .all: polls.notifyAll()
        }
    }

    /// Every `sweepInterval`, wakes the sessions written since the last sweep that succeeded.
    /// While the store cannot be reached, the cursor stays where it was, so the first sweep
    /// that succeeds afterwards names everything written meanwhile.
    private func sweep() async {
        var cursor: Feed.Cursor?
        var failing = false
        while !Task.isCancelled {
            do {
                let changes = try await feed.changedSessions(since: cursor)
                for session in changes.sessions { polls.notify(session) }
                cursor = changes.cursor
                if failing { await report(true) }
                failing = false
            } catch is CancellationError {
                return
            } catch {
                if !failing { await report(false) }
                failing = true
            }
            try? await Task.sleep(for: sweepInterval)
        }
    }
}
