import AlertCatalogs
import AlertQueue
import AlertQueuePostgres
import AlertServer
import ArgumentParser
import Dispatch
import Foundation
import Logging
import MicroHTTP

/// `alertd serve`: the HTTP service, until SIGINT or SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API.",
        discussion: """
            Stops cleanly on SIGINT or SIGTERM: no new connections, requests in flight finish
            (up to --shutdown-grace seconds), exit status 0.

            Each setting is a flag, an ALERTD_* variable (ALERTD_PORT for --port, …) or a line of \
            the --config file (`port: 9090`), in that precedence. --print-config shows the result \
            and where each value came from, secrets hidden.

            Examples:
              ALERTD_PORT=9090 alertd serve --host 127.0.0.1
              alertd serve --config /etc/alertd/alertd.yaml
              alertd serve --config /etc/alertd/alertd.yaml --print-config
            """)

    @OptionGroup var config: ConfigOption

    @Flag(help: "Print the effective settings (secrets hidden) as a config file, and exit.")
    var printConfig = false

    @Option(help: "Address to listen on; ALERTD_HOST. (default: 127.0.0.1)")
    var host: String?

    @Option(help: "Port to listen on, 0 for any free one; ALERTD_PORT. (default: 8080)")
    var port: Int?

    @Option(help: "Queue store: \(StoreLocation.usage); ALERTD_STORE. (default: sqlite:DATA-DIR/alertd.sqlite)")
    var store: String?

    @Option(help: "PostgreSQL store: connections each instance may open (plus one that listens); ALERTD_STORE_POOL_SIZE. (default: 10)")
    var storePoolSize: Int?

    @Option(help: "PostgreSQL store: seconds a store call may take before it answers 503; ALERTD_STORE_TIMEOUT. (default: 5)")
    var storeTimeout: Int?

    @Option(help: "PostgreSQL store: least milliseconds between two NOTIFY statements of this instance, 0…500 (under load, another instance's long-poll hears of a write up to this much later); ALERTD_STORE_NOTIFY_SPACING. (default: 20)")
    var storeNotifySpacing: Int?

    /// `--data-dir` and `--session-secret`, shared with `alertd token`.
    @OptionGroup var secrets: SecretOptions

    @Option(help: "Token for admin calls; ALERTD_ADMIN_TOKEN. (default: generated once, kept in DATA-DIR/admin-token)")
    var adminToken: String?

    @Option(help: "Seconds a delivered alert stays leased without an ack; ALERTD_LEASE. (default: 60)")
    var lease: Int?

    @Option(help: "Deliveries without an ack before an alert is dead-lettered; ALERTD_MAX_DELIVERIES. (default: 5)")
    var maxDeliveries: Int?

    @Option(help: "Live alerts one session may hold; ALERTD_MAX_QUEUE_LENGTH. (default: 100)")
    var maxQueueLength: Int?

    @Option(help: "Folder of catalog files; ALERTD_CATALOGS. (default: none)")
    var catalogs: String?

    @Option(help: "Largest request body in bytes; ALERTD_MAX_BODY_SIZE. (default: 1048576)")
    var maxBodySize: Int?

    @Option(help: "Worker threads; ALERTD_THREADS. (default: one per core)")
    var threads: Int?

    @Option(help: "Connections held at once; ALERTD_CONNECTION_LIMIT. (default: 16384)")
    var connectionLimit: Int?

    @Option(help: """
        Connections held at once from one client address, 0 for no limit (behind a reverse proxy \
        every connection comes from the proxy: raise it or set 0); ALERTD_PER_CLIENT_CONNECTION_LIMIT. (default: 128)
        """)
    var perClientConnectionLimit: Int?

    @Option(help: "Longest path and query string in bytes (414 past it); ALERTD_MAX_URL_LENGTH. (default: 2048)")
    var maxURLLength: Int?

    @Option(help: "Most header fields in one request (431 past it); ALERTD_MAX_HEADER_COUNT. (default: 64)")
    var maxHeaderCount: Int?

    @Option(help: """
        Bytes for one connection's request line, headers and buffers (a request whose headers \
        do not fit is closed); each waiting long-poll holds this much; ALERTD_CONNECTION_MEMORY. (default: 4096)
        """)
    var connectionMemory: Int?

    @Option(help: "Seconds before an idle connection is closed; ALERTD_CONNECTION_TIMEOUT. (default: 30)")
    var connectionTimeout: Int?

    @Option(help: "Seconds requests in flight get to finish at shutdown; ALERTD_SHUTDOWN_GRACE. (default: 10)")
    var shutdownGrace: Int?

    @Option(help: "Rendered alerts kept (alert, parameters, locale), 0 for none; ALERTD_RENDER_CACHE_SIZE. (default: 4096)")
    var renderCacheSize: Int?

    /// `--log-format`, `--log-level`.
    @OptionGroup var logging: LogOptions

    func run() throws {
        var settings = config.settings()
        let defaults = HTTPServer.Configuration()
        let http = HTTPServer.Configuration(
            host: settings.string(host, flagName: "host", env: "ALERTD_HOST", default: defaults.host),
            port: settings.integer(port, flagName: "port", env: "ALERTD_PORT", default: defaults.port),
            threads: settings.integer(threads, flagName: "threads", env: "ALERTD_THREADS", default: defaults.threads),
            connectionLimit: settings.integer(
                connectionLimit, flagName: "connection-limit", env: "ALERTD_CONNECTION_LIMIT",
                default: defaults.connectionLimit),
            perClientConnectionLimit: settings.integer(
                perClientConnectionLimit, flagName: "per-client-connection-limit", env: "ALERTD_PER_CLIENT_CONNECTION_LIMIT",
                default: defaults.perClientConnectionLimit),
            connectionMemoryLimit: settings.integer(
                connectionMemory, flagName: "connection-memory", env: "ALERTD_CONNECTION_MEMORY",
                default: defaults.connectionMemoryLimit),
            connectionTimeout: settings.integer(
                connectionTimeout, flagName: "connection-timeout", env: "ALERTD_CONNECTION_TIMEOUT",
                default: defaults.connectionTimeout),
            maxBodySize: settings.integer(
                maxBodySize, flagName: "max-body-size", env: "ALERTD_MAX_BODY_SIZE", default: defaults.maxBodySize),
            maxURLLength: settings.integer(
                maxURLLength, flagName: "max-url-length", env: "ALERTD_MAX_URL_LENGTH", default: defaults.maxURLLength),
            maxHeaderCount: settings.integer(
                maxHeaderCount, flagName: "max-header-count", env: "ALERTD_MAX_HEADER_COUNT", default: defaults.maxHeaderCount))
        let grace = settings.integer(shutdownGrace, flagName: "shutdown-grace", env: "ALERTD_SHUTDOWN_GRACE", default: 10)
        let renderCache = settings.integer(
            renderCacheSize, flagName: "render-cache-size", env: "ALERTD_RENDER_CACHE_SIZE", default: 4096)
        let dataFolder = secrets.dataFolder(&settings)
        let storeText = settings.string(
            store, flagName: "store", env: "ALERTD_STORE", default: "sqlite:\(dataFolder)/alertd.sqlite",
            show: { "'\(StoreLocation.redacted($0).replacing("'", with: "''"))'" })
        let queueSettings = QueueSettings(
            leaseDuration: Double(settings.integer(lease, flagName: "lease", env: "ALERTD_LEASE", default: 60)),
            maxDeliveries: settings.integer(maxDeliveries, flagName: "max-deliveries", env: "ALERTD_MAX_DELIVERIES", default: 5),
            maxQueueLength: settings.integer(maxQueueLength, flagName: "max-queue-length", env: "ALERTD_MAX_QUEUE_LENGTH", default: 100))
        let postgresOptions = PostgresQueueStore.Options(
            maximumConnections: settings.integer(
                storePoolSize, flagName: "store-pool-size", env: "ALERTD_STORE_POOL_SIZE", default: 10),
            requestTimeout: .seconds(settings.integer(storeTimeout, flagName: "store-timeout", env: "ALERTD_STORE_TIMEOUT", default: 5)),
            notificationSpacing: .milliseconds(settings.integer(
                storeNotifySpacing, flagName: "store-notify-spacing", env: "ALERTD_STORE_NOTIFY_SPACING", default: 20)))
        let givenAdminToken = settings.optionalString(
            adminToken, flagName: "admin-token", env: "ALERTD_ADMIN_TOKEN", secret: true,
            unset: "generated once, kept in DATA-DIR/\(Credentials.adminTokenFile)")
        let givenSecret = secrets.givenSessionSecret(&settings)
        let catalogFolder = settings.optionalString(
            catalogs, flagName: "catalogs", env: "ALERTD_CATALOGS", unset: "the built-in catalogs only")
        let logs = logging.resolve(&settings)
        settings.reportUnknownFileSettings()

        http.problems.forEach { settings.report($0) }
        if grace < 0 { settings.report("--shutdown-grace must not be negative, not \(grace)") }
        if renderCache < 0 { settings.report("--render-cache-size must not be negative, not \(renderCache)") }
        if queueSettings.leaseDuration < 1 { settings.report("--lease must be at least 1 second") }
        if queueSettings.maxDeliveries < 1 { settings.report("--max-deliveries must be at least 1") }
        if queueSettings.maxQueueLength < 1 { settings.report("--max-queue-length must be at least 1") }
        if postgresOptions.maximumConnections < 1 { settings.report("--store-pool-size must be at least 1") }
        if postgresOptions.requestTimeout < .seconds(1) { settings.report("--store-timeout must be at least 1 second") }
        if !(.zero ... .milliseconds(500)).contains(postgresOptions.notificationSpacing) {
            settings.report("--store-notify-spacing must be from 0 to 500 milliseconds")
        }
        if printConfig, settings.problems.isEmpty {
            // Before anything is created or opened: showing the settings changes nothing.
            say(settings.printed)
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
        } catch {
            settings.report("--data-dir: cannot create \(dataFolder)")
        }
        var storeLocation = StoreLocation.memory
        switch StoreLocation.parse(storeText) {
        case .success(let location): storeLocation = location
        case .failure(let error): settings.report(error.message)
        }
        if let catalogFolder {
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: catalogFolder, isDirectory: &isFolder) || !isFolder.boolValue {
                settings.report("--catalogs: \(catalogFolder) is not a folder")
            }
        }
        guard settings.problems.isEmpty, let logs else {
            for problem in settings.problems { printError("alertd: \(problem)") }
            throw ExitCode(2)
        }
        let logger = LogOptions.bootstrap(format: logs.format, level: logs.level)
        let metrics = ServiceMetrics()
        metrics.bootstrapMetricsSystem()

        signal(SIGPIPE, SIG_IGN)
        // Catch SIGINT/SIGTERM before anyone can learn the address: a signal sent right after
        // the "listening" line must stop the server cleanly, not kill it or go unnoticed.
        let termination = TerminationSignals()
        let openFiles = ResourceLimits.raiseOpenFileLimit()
        let registry = try catalogRegistry(folder: catalogFolder, logger: logger)
        logger.info("catalogs loaded", metadata: ["catalogs": "\(registry.catalogs.map(\.name).joined(separator: ", "))"])
        let credentials = try Credentials.load(
            adminToken: givenAdminToken, sessionSecret: givenSecret, folder: URL(fileURLWithPath: dataFolder))
        let opened = try OpenedStore(storeLocation, settings: queueSettings, postgres: postgresOptions)
        let queue = QueueServices(store: opened.store, credentials: credentials, settings: queueSettings)
        opened.start(polls: queue.polls, logger: logger)
        logger.info("store opened", metadata: ["store": "\(storeLocation)"])
        for file in credentials.files { logger.info("secret kept (owner only)", metadata: ["file": "\(file)"]) }
        let service = try AlertService(
            catalogs: registry, queue: queue, renderCacheSize: renderCache, metrics: metrics, logger: logger)
        let server = try HTTPServer(configuration: http, handler: service, observer: service.observer)
        let hostText = http.host.contains(":") ? "[\(http.host)]" : http.host
        say("alertd listening on http://\(hostText):\(server.port)")  // exactly this: supervisors and tests read it
        logger.info(
            "listening",
            metadata: ["url": "http://\(hostText):\(server.port)", "threads": "\(http.threads)", "open_files": "\(openFiles)"])

        termination.wait()
        logger.info("stopping")
        queue.polls.close()  // waiting long-polls answer 204 before the server stops
        server.stop(grace: .seconds(grace))
        opened.stop()  // the store's pool and wake-ups, once no request can use them
        logger.info("stopped")
    }

    /// The built-in catalogs and those of `folder`; on any problem, one line each on stderr
    /// and exit status 2.
    private func catalogRegistry(folder: String?, logger: Logger) throws -> CatalogRegistry {
        let builtIn = try CatalogRegistry.builtInCatalogs()
        var files: [FileCatalog] = []
        if let folder {
            do {
                files = try CatalogFolder.load(URL(fileURLWithPath: folder), alongside: builtIn)
                for warning in files.flatMap(\.warnings) { logger.warning("\(warning)") }
            } catch let error as CatalogFileError {
                for warning in error.warnings { printError("alertd: warning: \(warning)") }
                for problem in error.problems { printError("alertd: \(problem)") }
                throw ExitCode(2)
            }
        }
        do {
            return try CatalogRegistry(builtIn + files)
        } catch let error as CatalogError {
            printError("alertd: \(error)")
            throw ExitCode(2)
        }
    }
}
