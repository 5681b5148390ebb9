import AlertCatalogs
import AlertQueue
import AlertQueueSQLite
import AlertServer
import Dispatch
import MicroHTTP

/// The server as `alertd serve` builds it, with the built-in catalogs and an in-memory store
/// (which the targets' rendering and validating never touch), shared by the fuzz targets that
/// drive requests through the router.
public enum FuzzService {
    public static let service: AlertService = {
        do {
            let store = try SQLiteQueueStore.inMemory()
            let credentials = Credentials(adminToken: "fuzz-admin-token", sessionSecret: "fuzz-session-secret")
            return try AlertService(catalogs: .builtIn(), queue: QueueServices(store: store, credentials: credentials))
        } catch {
            fatalError("cannot build the service: \(error)")
        }
    }()

    /// The service's answer to `request`, waited for: a route that answers later (validate runs
    /// on threads of its own) is answered all the same.
    public static func answer(_ request: HTTPRequest) -> HTTPResponse {
        final class Box: @unchecked Sendable { var response: HTTPResponse? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.response = await service.answer(request)
            done.signal()
        }
        done.wait()
        return box.response!
    }
}
