import AlertCatalogs
import AlertQueue
import AlertQueueSQLite
import AlertServer
import Logging

@testable import AlertdTestSupport
@testable import HTTPTestSupport

extension AlertService {
    /// The service with the built-in catalogs and a fresh in-memory queue store; `logger`, when
    /// given, gets its request lines and errors.
    static func forTests(
        settings: QueueSettings = QueueSettings(), clock: any AlertClock = SystemClock(), renderCacheSize: Int = 4096,
        logger: Logger? = nil
    ) throws -> AlertService {
        let queue = QueueServices(
            store: try SQLiteQueueStore.inMemory(settings: settings), credentials: TestCredentials.credentials, settings: settings,
            clock: clock)
        guard let logger else { return try AlertService(catalogs: .builtIn(), queue: queue, renderCacheSize: renderCacheSize) }
        return try AlertService(catalogs: .builtIn(), queue: queue, renderCacheSize: renderCacheSize, logger: logger)
    }
}
