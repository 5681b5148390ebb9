import CMicroHTTPD
import Locking
import Synchronization

/// What the C callbacks reach through their context pointer: the handler, the limits, and the
/// registry of suspended requests that shutdown must answer before the daemon stops.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let limits: RequestLimits
    /// Told about every finished request, if set.
    let observer: (any HTTPObserver)?
    /// Requests between their first handler call and their completion callback.
    let inFlight = Atomic<Int>(0)
    private let suspended = Locked<[ObjectIdentifier: ResponsePromise]>([:])
    private let stopping = Atomic<Bool>(false)

    init(handler: any HTTPHandler, limits: RequestLimits, observer: (any HTTPObserver)? = nil) {
        self.handler = handler
        self.limits = limits
        self.observer = observer
    }

    /// The largest body accepted.
    var maxBodySize: Int { limits.maxBodySize }

    /// Registers a suspended request; false when the server is stopping (answer it now instead).
    func remember(_ promise: ResponsePromise) -> Bool {
        suspended.withLock { registry in
            guard !stopping.load(ordering: .acquiring) else { return false }
            registry[ObjectIdentifier(promise)] = promise
            return true
        }
    }

    func forget(_ promise: ResponsePromise) {
        _ = suspended.withLock { $0.removeValue(forKey: ObjectIdentifier(promise)) }
    }

    func resume(_ connection: OpaquePointer) {
        MHD_resume_connection(connection)
    }

    /// Refuses new suspensions and answers every suspended request with `response`.
    func answerSuspended(with response: HTTPResponse) {
        let waiting = suspended.withLock { registry in
            stopping.store(true, ordering: .releasing)
            defer { registry.removeAll() }
            return Array(registry.values)
        }
        for promise in waiting { promise.fulfill(response) }
    }
}
