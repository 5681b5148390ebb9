#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertQueue
import AlertServer
import Foundation
import Logging
import MicroHTTP
@testable import HTTPTestSupport
@testable import AlertdTestSupport

/// Runs `body` against the real alertd service on a real socket: an `HTTPServer` bound to
/// 127.0.0.1 on a port the system picks, serving the built-in catalogs. The server is stopped
/// when `body` returns or throws. `perClientConnectionLimit` is 0 (none) unless a test asks:
/// every test client connects from 127.0.0.1.
///
/// ```swift
/// try withLiveServer { port in
///     let response = try RawHTTPClient(port: port).request("GET", "/livez")
///     #expect(response.status == 200)
/// }
/// ```
func withLiveServer<Result>(
    maxBodySize: Int = 1024 * 1024,
    threads: Int = 2,
    connectionTimeout: Int = 10,
    perClientConnectionLimit: Int = 0,
    settings: QueueSettings = QueueSettings(),
    clock: any AlertClock = SystemClock(),
    _ body: (_ port: Int) throws -> Result
) throws -> Result {
    try withLiveService(
        maxBodySize: maxBodySize, threads: threads, connectionTimeout: connectionTimeout,
        perClientConnectionLimit: perClientConnectionLimit, settings: settings, clock: clock
    ) { port, _ in try body(port) }
}

/// `withLiveServer`, also handing `body` the service it runs (its queue store, its waiting
/// long-polls), for tests that watch the server's side; `logger` gets its request lines.
func withLiveService<Result>(
    maxBodySize: Int = 1024 * 1024,
    threads: Int = 2,
    connectionTimeout: Int = 10,
    perClientConnectionLimit: Int = 0,
    settings: QueueSettings = QueueSettings(),
    clock: any AlertClock = SystemClock(),
    logger: Logger? = nil,
    _ body: (_ port: Int, _ service: AlertService) throws -> Result
) throws -> Result {
    let configuration = HTTPServer.Configuration(
        host: "127.0.0.1", port: 0, threads: threads, perClientConnectionLimit: perClientConnectionLimit,
        connectionTimeout: connectionTimeout, maxBodySize: maxBodySize)
    return try withLiveHTTPServer(configuration, settings: settings, clock: clock, logger: logger) { server, service in
        try body(server.port, service)
    }
}

/// `withLiveService` on a server configured as given, handing `body` the server itself.
func withLiveHTTPServer<Result>(
    _ configuration: HTTPServer.Configuration,
    settings: QueueSettings = QueueSettings(),
    clock: any AlertClock = SystemClock(),
    logger: Logger? = nil,
    _ body: (_ server: HTTPServer, _ service: AlertService) throws -> Result
) throws -> Result {
    _ = LiveServer.ignoreBrokenPipes
    let service = try AlertService.forTests(settings: settings, clock: clock, logger: logger)
    let server = try HTTPServer(configuration: configuration, handler: service, observer: service.observer)
    defer {
        service.queue.polls.close()  // waiting long-polls answer before the server stops, as in alertd
        server.stop(grace: .seconds(2))
    }
    return try body(server, service)
}

enum LiveServer {
    /// A client that went away must not kill the test process with SIGPIPE when the in-process
    /// server writes to it (`alertd serve` ignores SIGPIPE the same way). Evaluated once.
    static let ignoreBrokenPipes: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()
}
