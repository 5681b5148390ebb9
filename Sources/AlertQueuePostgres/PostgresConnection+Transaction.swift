import AlertQueue
import PostgresNIO

extension PostgresConnection {
    /// Runs `body` between `BEGIN` and `COMMIT`; rolls back and rethrows `body`'s own error when
    /// it throws (postgres-nio's `withTransaction` wraps errors, which hides SQLSTATEs from the
    /// callers that map them).
    func transaction<T>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await query("BEGIN", logger: logger)
        do {
            let value = try await body(self)
            try await query("COMMIT", logger: logger)
            return value
        } catch {
            _ = try? await query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Sends `query` and returns at once, with its answer to come. The connection runs its
    /// queries in the order sent, each as soon as the one before is answered, so a query sent
    /// this way before an awaited one travels without a wait of its own.
    func pipelined(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        self.query(query, logger: logger)
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back to (keeping the rest
    /// of the transaction usable) when it throws.
    func savepoint<T>(_ name: String, logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await query("SAVEPOINT \(unescaped: name)", logger: logger)
        do {
            let value = try await body(self)
            try await query("RELEASE SAVEPOINT \(unescaped: name)", logger: logger)
            return value
        } catch {
            try await query("ROLLBACK TO SAVEPOINT \(unescaped: name)", logger: logger)
            throw error
        }
    }
}

extension PSQLError {
    /// The SQLSTATE the server answered with, if it answered with an error.
    var sqlState: String? { code == .server ? serverInfo?[.sqlState] : nil }

    /// The constraint a server error names (for unique violations: the index).
    var constraint: String? { serverInfo?[.constraintName] }

    /// A unique index refused a row: `23505`.
    var isUniqueViolation: Bool { sqlState == "23505" }

    /// The transaction lost a race that running it again resolves: a deadlock (`40P01`), a
    /// serialization failure (`40001`), or a unique index that a concurrent commit now fills
    /// (`23505`; the next attempt sees the winner and answers accordingly).
    var isRetryable: Bool { ["40P01", "40001", "23505"].contains(sqlState) }
}

/// An error of the caller's own code run inside a step (an ack's chain): rethrown as it is, not
/// taken for the database's.
struct CallerError: Error {
    let error: any Error
}

/// What a store call throws for an error of PostgreSQL or of the connection.
///
/// A `QueueError` stays as it is. Everything that says "the database cannot serve now" becomes
/// `QueueError.unavailable` (503): no connection, a connection lost, the deadline passed, the
/// server shutting down or out of resources, a statement cancelled by `statement_timeout`, a race
/// still lost after retries. Errors that mean a bug (SQL the server refuses, a row that cannot be
/// decoded) are rethrown as they are.
func storeError(_ error: any Error) -> any Error {
    switch error {
    case let error as PostgresStoreError where error.isNewerSchema:
        // A newer alertd migrated the database while this one runs (an upgrade rolling through
        // the instances): this one answers 503, and `/readyz` says it is not ready, until it is
        // upgraded too.
        return QueueError.unavailable(error.description)
    case is QueueError, is CancellationError, is PostgresStoreError, is PostgresDecodingError, is BatchRunsAlone:
        return error
    case let error as CallerError:
        return error.error
    case is DeadlineExceeded:
        return QueueError.unavailable("PostgreSQL did not answer in time")
    case let error as PSQLError:
        guard let state = error.sqlState else {
            return QueueError.unavailable("PostgreSQL connection: \(error.code)")
        }
        let transient = ["08", "53", "57", "58", "40"].contains(state.prefix(2)) || error.isRetryable
            || ["55P03", "25P03"].contains(state)
        guard transient else { return error }
        return QueueError.unavailable("PostgreSQL answered \(state): \(error.serverInfo?[.message] ?? "")")
    default:
        // NIO channel errors, DNS failures: all mean no connection.
        return QueueError.unavailable("PostgreSQL connection: \(error)")
    }
}
