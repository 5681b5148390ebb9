import AlertCatalogs
import AlertQueue
import AlertServer
import Logging

/// The admin token and session secret of the services tests build.
enum TestCredentials {
    static let adminToken = "test-admin-token"
    static let sessionSecret = "test-session-secret"
    static let credentials = Credentials(adminToken: adminToken, sessionSecret: sessionSecret)
}

extension AlertService {
    /// The service with the built-in catalogs and a fresh in-memory queue store; `logger`, when
    /// given, gets its request lines and errors.
    static func forTests(
        settings: QueueSettings = QueueSettings(), renderCacheSize: Int = 4096, logger: Logger? = nil
    ) throws -> AlertService {
        let queue = QueueServices(
            store: try SQLiteQueueStore.inMemory(settings: settings), credentials: TestCredentials.credentials, settings: settings)
        guard let logger else { return try AlertService(catalogs: .builtIn(), queue: queue, renderCacheSize: renderCacheSize) }
        return try AlertService(catalogs: .builtIn(), queue: queue, renderCacheSize: renderCacheSize, logger: logger)
    }
}
