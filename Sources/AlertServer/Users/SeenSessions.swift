import AlertQueue
import Foundation
import Locking
import Logging

/// When sessions were last seen, kept in memory and written to the store in batches: a
/// session is seen whenever it calls with its own token (`Access.requireSession`), and writing
/// the store on every such call would double the writes of `next`. Every `interval`, the times
/// gathered since the last flush go to the store in one call (`SessionDirectory.markSeen`: one
/// transaction, a row's time only moved later), and once more at shutdown.
///
/// The store's times therefore lag by up to `interval` (plus a failed flush's retries); this
/// instance's readers merge what it has not flushed yet (`lastSeen(_:stored:)`), other
/// instances' readers do not.
///
/// ```swift
/// let seen = SeenSessions(directory: store, interval: .seconds(5))
/// seen.saw("phone-1", at: clock.now())      // any call made with phone-1's token
/// let task = Task { await seen.run() }      // for the server's life
/// try await seen.flush()                    // at shutdown, after `task.cancel()`
/// ```
public final class SeenSessions: Sendable {
    public let directory: any SessionDirectory
    /// Between two flushes.
    public let interval: Duration
    let logger: Logger

    private struct Times {
        /// Seen since the last flush began.
        var pending: [String: Date] = [:]
        /// Being written by a flush under way.
        var flushing: [String: Date] = [:]
    }

    private let times = Locked(Times())

    public init(directory: any SessionDirectory, interval: Duration = .seconds(5), logger: Logger = Logger(label: "alertd")) {
        self.directory = directory
        self.interval = interval
        self.logger = logger
    }

    /// Notes that `session` was seen at `time` (kept when later than the time noted already).
    public func saw(_ session: String, at time: Date) {
        times.withLock { times in
            if let noted = times.pending[session], noted >= time { return }
            times.pending[session] = time
        }
    }

    /// The later of `stored` and the time this instance saw the session but has not flushed.
    public func lastSeen(_ session: String, stored: Date) -> Date {
        times.withLock { times in
            [stored, times.pending[session], times.flushing[session]].compactMap { $0 }.max() ?? stored
        }
    }

    /// Writes the times gathered so far in one `markSeen`; how many sessions it wrote. When the
    /// store fails they are kept for the next flush, and the error is thrown.
    @discardableResult
    public func flush() async throws -> Int {
        let batch = times.withLock { times -> [String: Date] in
            let batch = times.pending
            times.flushing.merge(batch) { max($0, $1) }
            times.pending = [:]
            return batch
        }
        guard !batch.isEmpty else { return 0 }
        do {
            try await directory.markSeen(batch)
        } catch {
            times.withLock { times in times.pending.merge(batch) { max($0, $1) } }
            throw error
        }
        times.withLock { times in
            for (session, time) in batch where times.flushing[session] == time { times.flushing[session] = nil }
        }
        return batch.count
    }

    /// Flushes every `interval` until the calling task is cancelled; a failed flush is logged
    /// and tried again at the next. Does not flush when cancelled: call `flush()` then, while
    /// the store still runs.
    public func run() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            do {
                try await flush()
            } catch {
                logger.warning("last-seen times not written; trying again later", metadata: ["error": "\(error)"])
            }
        }
    }
}
