import AlertQueue
import Foundation
import PostgresNIO
import Synchronization

extension PostgresQueueStore {
    /// LISTENs on `options.channel` with a connection of its own (not one of the pool's) and calls
    /// `wake` for every change any instance commits, until the calling task is cancelled.
    ///
    /// When the connection drops (the server restarted, the network failed, or a ping every
    /// 5 seconds went unanswered for 2), it connects again after at most a second (100 ms, then
    /// doubling), and calls `wake(.all)` once it listens again — also the first time, so `.all`
    /// also says "listening now". `wake` is called on a NIO thread: keep it short.
    ///
    /// What is announced: an enqueue that queued something, an ack, a cancel, a hold and its
    /// release, a listing that found leases or TTLs ended. What is not: `next` (a delivery makes
    /// nothing deliverable for another waiter), and time passing — a lease that ends is noticed
    /// by the next call that looks, so a waiter should also look again at its own deadline.
    /// Nor does an instance announce anything while no other instance listens (see
    /// `ChangeNotifier.othersListen`): each instance says on the channel when it starts
    /// listening, so that the others notify it from then on. Notifications can be lost while no
    /// connection listens; pair this with a sweep of `changedSessions(since:)`.
    ///
    /// ```swift
    /// group.addTask {
    ///     await store.listen { change in
    ///         switch change {
    ///         case .session(let session): waiters.wake(session: session)
    ///         case .all: waiters.wakeAll()
    ///         }
    ///     }
    /// }
    /// ```
    public func listen(_ wake: @escaping @Sendable (QueueChange) -> Void) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await listenOnce(wake)
                failures = 0
            } catch {
                logger.debug("queue listener connection failed", metadata: ["error": "\(error)"])
            }
            guard !Task.isCancelled else { return }
            failures += 1
            // Within a second: a lost notification is late by at most this, plus the sweep.
            try? await Task.sleep(for: PostgresPool.reconnectDelay(afterFailures: failures, atMost: .seconds(1)))
        }
    }

    /// `listen(_:)` as a stream, for callers that prefer `for await`; ending the iteration stops
    /// listening.
    public func changes() -> AsyncStream<QueueChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: QueueChange.self)
        let task = Task {
            await self.listen { change in continuation.yield(change) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Connects, LISTENs, and passes notifications on until the connection fails or the task is
    /// cancelled. Throws only when it could not start listening.
    private func listenOnce(_ wake: @escaping @Sendable (QueueChange) -> Void) async throws {
        let configuration = try Self.connectionConfiguration(endpoint, options, applicationName: listenerName)
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: Self.listenerIDs.add(1, ordering: .relaxed).newValue, logger: logger)
        let logger = logger
        do {
            let (channel, name) = (options.channel, listenerName)
            // On the connection's event loop, like the pool's calls: a notification read there is
            // passed on there, without waking a thread of Swift's pool for each.
            try await withTaskExecutorPreference(EventLoopExecutor(connection.eventLoop)) {
                try await connection.listen(on: channel) { notifications in
                    wake(.all)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await notification in notifications {
                                // An instance saying it listens now (a session id of the HTTP API
                                // holds no space): if another, this one notifies from now on.
                                if notification.payload.hasPrefix(Self.listenerPrefix) {
                                    if notification.payload != name { self.notifier.othersListen.store(true, ordering: .relaxed) }
                                    continue
                                }
                                for session in ChangeNotifier.sessions(inPayload: notification.payload) { wake(.session(session)) }
                            }
                        }
                        // Says so to the other instances, which send no NOTIFY while none listens.
                        _ = try await connection.query("SELECT pg_notify(\(channel), \(name))", logger: logger).collect()
                        group.addTask {
                            while true {
                                try await Task.sleep(for: .seconds(5))
                                _ = try await withDeadline(.seconds(2)) {
                                    try await connection.query("SELECT 1", logger: logger).collect()
                                }
                            }
                        }
                        // Either one ending means the connection is no longer worth listening on.
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
            }
        } catch {
            logger.debug("queue listener connection lost", metadata: ["error": "\(error)"])
        }
        try? await connection.close()
    }

    private static let listenerIDs = Atomic<Int>(0)
}
