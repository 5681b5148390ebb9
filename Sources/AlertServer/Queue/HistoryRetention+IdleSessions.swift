import AlertQueue
import Foundation
import Logging

/// What one pass forgot of the idle sessions.
public struct ForgottenSessions: Sendable, Equatable {
    /// Sessions erased.
    public var sessions: Int
    /// Their items and events.
    public var erased: Erasure

    public init(sessions: Int = 0, erased: Erasure = .nothing) {
        self.sessions = sessions
        self.erased = erased
    }
}

extension HistoryRetention {
    /// Forgets the sessions last seen before `cutoff`, as `DELETE /v1/sessions/{s}` erases one
    /// (items, events, hold, counts, registry row and topics): this instance's unflushed seen
    /// times are written first, then the idle sessions are read a batch at a time, least
    /// recently seen first, and each erased in a transaction of its own that checks it is still
    /// idle (`SessionDirectory.forget`), at most `idlePerPass` in a pass, with the purge's pause
    /// between batches. Logs what went at `info` when anything did.
    @discardableResult
    public func forgetIdleSessions(seenBefore cutoff: Date) async throws -> ForgottenSessions {
        try await seen?.flush()
        var forgotten = ForgottenSessions()
        var looked = 0
        var batches = 0
        while looked < idlePerPass {
            if batches > 0, pause > .zero { try await Task.sleep(for: pause) }
            try Task.checkCancellation()
            let wanted = min(batchSize, idlePerPass - looked)
            let idle = try await store.idleSessions(seenBefore: cutoff, limit: wanted)
            batches += 1
            for session in idle {
                guard let erased = try await store.forget(session: session, seenBefore: cutoff) else { continue }
                forgotten.sessions += 1
                forgotten.erased.items += erased.items
                forgotten.erased.events += erased.events
            }
            looked += idle.count
            if idle.count < wanted { break }
        }
        if forgotten.sessions > 0 {
            logger.info(
                "idle sessions forgotten",
                metadata: [
                    "sessions": "\(forgotten.sessions)", "items": "\(forgotten.erased.items)",
                    "events": "\(forgotten.erased.events)", "batches": "\(batches)", "more": "\(looked >= idlePerPass)",
                ])
        }
        return forgotten
    }
}
