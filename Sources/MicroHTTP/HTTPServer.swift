import CMicroHTTPD
import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: worker threads with their own poll() loops, keep-alive,
/// request bodies up to a limit, and suspend/resume for answers that come later.
///
/// The server starts listening in `init` and serves until `stop(grace:)`.
public final class HTTPServer: Sendable {
    public let configuration: Configuration
    /// The port actually bound (the configured one, or the one the system picked for port 0).
    public let port: Int

    private let core: ServerCore
    private let listener: Listener
    nonisolated(unsafe) private let daemon: OpaquePointer
    private let stopped = Atomic<Bool>(false)

    /// - Parameter observer: told about every finished request (logs, metrics); none by default.
    public init(configuration: Configuration, handler: any HTTPHandler, observer: (any HTTPObserver)? = nil) throws {
        if let problem = configuration.problems.first { throw HTTPServerError.invalidConfiguration(problem) }
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        let core = ServerCore(
            handler: handler,
            limits: RequestLimits(
                maxBodySize: configuration.maxBodySize, maxURLLength: configuration.maxURLLength,
                maxHeaderCount: configuration.maxHeaderCount, maxHeadSize: configuration.maxHeadSize),
            observer: observer, crowd: configuration.crowd,
            clients: ClientLimit(limit: configuration.perClientConnectionLimit),
            deadlines: RequestDeadlines(limits: .init(
                headTimeout: .seconds(configuration.requestHeadTimeout), bodyGrace: .seconds(configuration.requestBodyGrace),
                minBodyRate: configuration.requestBodyMinRate)))
        observer?.attach(core.counts)
        let listener = try Listener(address: address, backlog: configuration.listenBacklog)
        var config = alertd_mhd_config(
            thread_pool_size: UInt32(configuration.threads),
            connection_limit: UInt32(configuration.connectionLimit),
            connection_memory_limit: configuration.connectionMemoryLimit,
            connection_timeout_seconds: UInt32(configuration.connectionTimeout))
        let context = Unmanaged.passUnretained(core).toOpaque()
        guard let daemon = alertd_mhd_start(
            &config, microHTTPAccess, context, microHTTPCompleted, context, microHTTPConnectionNotify, context,
            microHTTPRequestLine, context) else {
            listener.close()
            throw HTTPServerError.cannotListen(host: configuration.host, port: configuration.port)
        }
        core.deadlines.start()
        listener.start(daemon: daemon, clients: core.clients)
        self.configuration = configuration
        self.core = core
        self.listener = listener
        self.daemon = daemon
        self.port = listener.port
    }

    /// Stops accepting connections and lets requests in flight — suspended ones included —
    /// finish for up to `grace`; answers those still suspended then with `suspendedResponse`
    /// (by default the handler's answer to `HTTPRequestFailure.unavailable`, a 503), and closes
    /// every connection. Safe to call more than once; only the first call acts.
    public func stop(grace: Duration = .seconds(10), suspendedResponse: HTTPResponse? = nil) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        listener.close()
        waitForRequests(until: ContinuousClock.now + grace)
        core.answerSuspended(with: suspendedResponse ?? core.handler.reject(.unavailable, method: "", path: ""))
        waitForRequests(until: ContinuousClock.now + .seconds(1))  // let those answers go out
        core.deadlines.stop()  // before the sockets close: it never shuts one down after
        core.daemonStops()
        MHD_stop_daemon(daemon)
    }

    /// Requests whose connection is suspended now, waiting for their answer.
    var suspendedConnections: Int { core.suspendedNow }

    /// The request deadlines' looks so far and requests cut: what tests wait on.
    var deadlineScans: Int { core.deadlines.scans.load(ordering: .acquiring) }
    var deadlineCuts: Int { core.deadlines.cuts.load(ordering: .relaxed) }

    private func waitForRequests(until deadline: ContinuousClock.Instant) {
        while core.counts.requestsInFlight > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    deinit { stop(grace: .zero) }
}

/// Why a server could not start.
public enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    case invalidConfiguration(String)
    case cannotResolve(host: String, reason: String)
    case cannotListen(host: String, port: Int)

    public var description: String {
        switch self {
        case .invalidConfiguration(let problem): "invalid server configuration: \(problem)"
        case .cannotResolve(let host, let reason): "cannot resolve \(host): \(reason)"
        case .cannotListen(let host, let port): "cannot listen on \(host):\(port) (in use, or not an address of this machine)"
        }
    }
}
