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
    /// Connections per client, against the per-client limit.
    let clients: ClientLimit
    /// Cuts requests whose head or body does not arrive in time.
    let deadlines: RequestDeadlines
    /// Requests in flight, counted between their first handler call and their completion callback.
    let counts = HTTPServerCounts()
    private let suspended = Locked<[ObjectIdentifier: ResponsePromise]>([:])
    /// How many `suspended` holds, kept beside it (read without its lock).
    private let suspendedCount = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Cleared before `MHD_stop_daemon`, which frees every connection, suspended ones too.
    private let daemonRunning = Locked(true)

    /// Requests waiting for their promise from which the server counts as crowded, by default:
    /// each MHD worker walks its whole list of suspended connections whenever it resumes one
    /// (0.9.75), about 450 µs with 5,000, so work that would resume a connection runs on a
    /// Dispatch thread instead (see `ResponsePromise.execute`).
    static let crowd = 1_000
    private let crowd: Int

    /// Whether so many requests wait that resuming a connection is dear.
    var isCrowded: Bool { suspendedCount.load(ordering: .relaxed) >= crowd }

    init(
        handler: any HTTPHandler, limits: RequestLimits, observer: (any HTTPObserver)? = nil, crowd: Int = ServerCore.crowd,
        clients: ClientLimit = ClientLimit(limit: 0),
        deadlines: RequestDeadlines = RequestDeadlines(
            limits: .init(headTimeout: .seconds(10), bodyGrace: .seconds(10), minBodyRate: 1024))
    ) {
        self.handler = handler
        self.limits = limits
        self.observer = observer
        self.crowd = crowd
        self.clients = clients
        self.deadlines = deadlines
    }

    /// The largest body accepted.
    var maxBodySize: Int { limits.maxBodySize }

    /// Registers a suspended request; false when the server is stopping (answer it now instead).
    func remember(_ promise: ResponsePromise) -> Bool {
        suspended.withLock { registry in
            guard !stopping.load(ordering: .acquiring) else { return false }
            registry[ObjectIdentifier(promise)] = promise
            suspendedCount.store(registry.count, ordering: .relaxed)
            return true
        }
    }

    func forget(_ promise: ResponsePromise) {
        suspended.withLock { registry in
            if registry.removeValue(forKey: ObjectIdentifier(promise)) != nil { suspendedCount.store(registry.count, ordering: .relaxed) }
        }
    }

    /// Requests whose connection is suspended now.
    var suspendedNow: Int {
        suspended.withLock { registry in registry.values.count(where: { $0.state.withLock(\.suspended) }) }
    }

    /// Resumes `connection`: at once, or at the end of the `ResumeBatch` collecting on this task.
    func resume(_ connection: OpaquePointer) {
        if let batch = ResumeBatch.current, batch.add(connection, of: self) { return }
        resumeNow(connection)
    }

    /// Resumes `connection` now, unless the daemon is about to stop (its connections go with it).
    func resumeNow(_ connection: OpaquePointer) {
        daemonRunning.withLock { running in
            if running { MHD_resume_connection(connection) }
        }
    }

    /// No connection is resumed from now on: the daemon stops next. A resume under way ends first.
    func daemonStops() {
        daemonRunning.withLock { $0 = false }
    }

    /// Refuses new suspensions and answers every suspended request with `response`.
    func answerSuspended(with response: HTTPResponse) {
        let waiting = suspended.withLock { registry in
            stopping.store(true, ordering: .releasing)
            suspendedCount.store(0, ordering: .relaxed)
            defer { registry.removeAll() }
            return Array(registry.values)
        }
        for promise in waiting { promise.fulfill(response) }
    }
}
