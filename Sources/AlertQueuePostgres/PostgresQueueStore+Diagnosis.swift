import PostgresNIO

extension PostgresQueueStore {
    /// Why a connection of its own (not the pool's) cannot reach the database and get an answer
    /// now, in words fit for a log — the server's own message when it refused (a wrong password,
    /// a database that does not exist), else what failed on the way; or, when it can, why the
    /// store still cannot serve (a newer alertd migrated the database); nil when nothing is
    /// wrong. Never shows the password.
    ///
    /// ```swift
    /// if let problem = await store.connectionProblem() { log("\(store.endpoint.redacted): \(problem)") }
    /// ```
    public func connectionProblem() async -> String? {
        let limit = options.connectTimeout + options.reachabilityTimeout
        do {
            try await withDeadline(limit) { [endpoint, options, logger] in
                let connection = try await PostgresConnection.connect(
                    configuration: try Self.connectionConfiguration(endpoint, options), id: 0, logger: logger)
                do {
                    _ = try await connection.query("SELECT 1", logger: logger).collect()
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            }
        } catch is DeadlineExceeded {
            return "no answer within \(limit)"
        } catch let error as PSQLError where error.serverInfo?[.message] != nil {
            return "PostgreSQL refused: \(PostgresPool.reason(error))"
        } catch {
            return PostgresPool.reason(error)
        }
        do {
            try await withDeadline(options.requestTimeout) { try await self.ensureMigrated() }
        } catch let error as PostgresStoreError where error.isNewerSchema {
            return error.description
        } catch {
            // Not the schema: the next look at the connection will tell.
        }
        return nil
    }
}
