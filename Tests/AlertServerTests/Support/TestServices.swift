import AlertCatalogs
import AlertQueue
import AlertServer

/// The admin token and session secret of the services tests build.
enum TestCredentials {
    static let adminToken = "test-admin-token"
    static let sessionSecret = "test-session-secret"
    static let credentials = Credentials(adminToken: adminToken, sessionSecret: sessionSecret)
}

extension AlertService {
    /// The service with the built-in catalogs and a fresh in-memory queue store.
    static func forTests(settings: QueueSettings = QueueSettings()) throws -> AlertService {
        try AlertService(
            catalogs: .builtIn(),
            queue: QueueServices(store: try SQLiteQueueStore.inMemory(settings: settings), credentials: TestCredentials.credentials, settings: settings))
    }
}
