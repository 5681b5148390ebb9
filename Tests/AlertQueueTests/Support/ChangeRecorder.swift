import AlertQueue
import Foundation
import Locking
import PostgresNIO
import TestExecutors

@testable import AlertQueuePostgres

/// Records what a store's listener hears, for tests to wait on.
final class ChangeRecorder: Sendable {
    private let changes = Locked<[QueueChange]>([])

    /// Starts `store.listen` — or iterates `store.changes()` — in a task kept by `database`
    /// (stopped when it is removed), on a thread of its own: the shared pool may be busy for
    /// longer than a test waits to hear something.
    init(listeningTo store: PostgresQueueStore, keptBy database: PostgresTestDatabase, asStream: Bool = false) {
        if asStream {
            let stream = store.changes()
            database.keep(
                Task(executorPreference: OwnThread()) {
                    for await change in stream { self.record(change) }
                })
        } else {
            database.keep(Task(executorPreference: OwnThread()) { await store.listen { change in self.record(change) } })
        }
    }

    private func record(_ change: QueueChange) {
        changes.withLock { $0.append(change) }
    }

    var heard: [QueueChange] { changes.withLock { $0 } }

    /// The sessions heard, in order (`.all` left out).
    var sessions: [String] {
        heard.compactMap { change in if case .session(let session) = change { session } else { nil } }
    }

    /// Waits until `condition` holds for what was heard, checking every 20 ms; false if it still
    /// does not after `attempts` checks (a bound so a broken listener fails the test rather than
    /// hanging it; not a timing goal).
    func wait(attempts: Int = 1500, until condition: ([QueueChange]) -> Bool) async -> Bool {
        await checkEvery20ms(attempts: attempts) { condition(heard) }
    }

    /// Waits until the listener has said `.all` `count` times (listening, or listening again).
    func waitUntilListening(times count: Int = 1) async -> Bool {
        await wait { $0.filter { $0 == .all }.count >= count }
    }
}

/// A plain LISTEN on a store's channel (not an instance's listener): every payload as sent,
/// the announcements of instances that start listening left out.
final class RawListener: Sendable {
    private let heard = Locked<[String]>([])
    private let connection: PostgresConnection
    private let channel: String
    private let logger: Logger

    private init(connection: PostgresConnection, channel: String, logger: Logger) {
        self.connection = connection
        self.channel = channel
        self.logger = logger
    }

    /// Listens on `store`'s channel over a connection of its own, kept (and closed) by
    /// `database`; returns once the LISTEN is in place.
    static func listening(on store: PostgresQueueStore, keptBy database: PostgresTestDatabase) async throws -> RawListener {
        let connection = try await PostgresConnection.connect(
            configuration: store.endpoint.connectionConfiguration(), id: 9_999, logger: store.logger)
        let listener = RawListener(connection: connection, channel: store.options.channel, logger: store.logger)
        let listening = Locked(false)
        database.keep(
            Task(executorPreference: OwnThread()) {
                try? await connection.listen(on: store.options.channel) { notifications in
                    listening.withLock { $0 = true }
                    for try await notification in notifications where !notification.payload.hasPrefix(PostgresQueueStore.listenerPrefix) {
                        listener.heard.withLock { $0.append(notification.payload) }
                    }
                }
                try? await connection.close()
            })
        while !listening.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        return listener
    }

    var payloads: [String] { heard.withLock { $0 } }

    /// Notifies `payload` on the channel from this listener's own connection and waits until it
    /// is heard back: PostgreSQL delivers notifications in commit order, so whatever anyone sent
    /// before has been heard by then.
    func heardAllSentBefore(marker payload: String = "marker") async throws -> Bool {
        try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
        return await wait { $0.contains(payload) }
    }

    /// Waits until `condition` holds for the payloads heard, as `ChangeRecorder.wait` does.
    func wait(attempts: Int = 1500, until condition: ([String]) -> Bool) async -> Bool {
        await checkEvery20ms(attempts: attempts) { condition(payloads) }
    }
}

/// Whether `holds` turns true, checked every 20 ms, at most `attempts` times.
private func checkEvery20ms(attempts: Int, _ holds: () -> Bool) async -> Bool {
    for _ in 0..<attempts {
        if holds() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return holds()
}
