import AlertCatalogs
import AlertQueue
import AlertQueuePostgres
import AlertQueueSQLite
import AlertServer
import AlertSpec
import ArgumentParser
import Dispatch
import Foundation
import Logging
import MicroHTTP

/// `alertd serve`: the HTTP service, until SIGINT or SIGTERM; SIGHUP reloads the catalogs.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API.",
        discussion: """
            Stops cleanly on SIGINT or SIGTERM: no new connections, requests in flight finish
            (up to --shutdown-grace seconds), exit status 0. SIGHUP reads the --catalogs folder
            again and serves it, or logs every problem and keeps the catalogs it serves.

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

    @Option(name: Setting.host.optionName, help: Setting.host.optionHelp)
    var host: String?

    @Option(name: Setting.port.optionName, help: Setting.port.optionHelp)
    var port: Int?

    @Option(name: Setting.store.optionName, help: Setting.store.optionHelp)
    var store: String?

    @Option(name: Setting.storePoolSize.optionName, help: Setting.storePoolSize.optionHelp)
    var storePoolSize: Int?

    @Option(name: Setting.storeTimeout.optionName, help: Setting.storeTimeout.optionHelp)
    var storeTimeout: Int?

    @Option(name: Setting.durability.optionName, help: Setting.durability.optionHelp)
    var durability: String?

    @Option(name: Setting.storeNotifySpacing.optionName, help: Setting.storeNotifySpacing.optionHelp)
    var storeNotifySpacing: Int?

    /// `--data-dir` and `--session-secret`, shared with `alertd token`.
    @OptionGroup var secrets: SecretOptions

    @Option(name: Setting.adminToken.optionName, help: Setting.adminToken.optionHelp)
    var adminToken: String?

    @Option(name: Setting.lease.optionName, help: Setting.lease.optionHelp)
    var lease: Int?

    @Option(name: Setting.maxDeliveries.optionName, help: Setting.maxDeliveries.optionHelp)
    var maxDeliveries: Int?

    @Option(name: Setting.maxQueueLength.optionName, help: Setting.maxQueueLength.optionHelp)
    var maxQueueLength: Int?

    @Option(name: Setting.timeline.optionName, help: Setting.timeline.optionHelp)
    var timeline: String?

    @Option(name: Setting.catalogs.optionName, help: Setting.catalogs.optionHelp)
    var catalogs: String?

    @Option(name: Setting.maxBodySize.optionName, help: Setting.maxBodySize.optionHelp)
    var maxBodySize: Int?

    @Option(name: Setting.threads.optionName, help: Setting.threads.optionHelp)
    var threads: Int?

    @Option(name: Setting.connectionLimit.optionName, help: Setting.connectionLimit.optionHelp)
    var connectionLimit: Int?

    @Option(name: Setting.perClientConnectionLimit.optionName, help: Setting.perClientConnectionLimit.optionHelp)
    var perClientConnectionLimit: Int?

    @Option(name: Setting.maxURLLength.optionName, help: Setting.maxURLLength.optionHelp)
    var maxURLLength: Int?

    @Option(name: Setting.maxHeaderCount.optionName, help: Setting.maxHeaderCount.optionHelp)
    var maxHeaderCount: Int?

    @Option(name: Setting.maxHeadSize.optionName, help: Setting.maxHeadSize.optionHelp)
    var maxHeadSize: Int?

    @Option(name: Setting.connectionMemory.optionName, help: Setting.connectionMemory.optionHelp)
    var connectionMemory: Int?

    @Option(name: Setting.connectionTimeout.optionName, help: Setting.connectionTimeout.optionHelp)
    var connectionTimeout: Int?

    @Option(name: Setting.requestHeadTimeout.optionName, help: Setting.requestHeadTimeout.optionHelp)
    var requestHeadTimeout: Int?

    @Option(name: Setting.requestBodyGrace.optionName, help: Setting.requestBodyGrace.optionHelp)
    var requestBodyGrace: Int?

    @Option(name: Setting.requestBodyMinRate.optionName, help: Setting.requestBodyMinRate.optionHelp)
    var requestBodyMinRate: Int?

    @Option(name: Setting.shutdownGrace.optionName, help: Setting.shutdownGrace.optionHelp)
    var shutdownGrace: Int?

    @Option(name: Setting.renderCacheSize.optionName, help: Setting.renderCacheSize.optionHelp)
    var renderCacheSize: Int?

    @Option(name: Setting.retention.optionName, help: Setting.retention.optionHelp)
    var retention: String?

    @Option(name: Setting.outcomesRetention.optionName, help: Setting.outcomesRetention.optionHelp)
    var outcomesRetention: String?

    @Option(name: Setting.sessionIdle.optionName, help: Setting.sessionIdle.optionHelp)
    var sessionIdle: String?

    /// `--min-modal-gap`, `--max-modals-per-day`, `--quiet-hours`, `--time-zone`, `--pacing-bypass-priority`.
    @OptionGroup var pacing: PacingOptions

    /// `--log-format`, `--log-level`.
    @OptionGroup var logging: LogOptions

    func run() throws {
        var settings = config.settings()
        let defaults = HTTPServer.Configuration()
        let http = HTTPServer.Configuration(
            host: settings.string(host, .host),
            port: settings.integer(port, .port),
            threads: settings.integer(threads, .threads, default: defaults.threads),
            connectionLimit: settings.integer(connectionLimit, .connectionLimit),
            perClientConnectionLimit: settings.integer(perClientConnectionLimit, .perClientConnectionLimit),
            connectionMemoryLimit: settings.integer(connectionMemory, .connectionMemory),
            connectionTimeout: settings.integer(connectionTimeout, .connectionTimeout),
            maxBodySize: settings.integer(maxBodySize, .maxBodySize),
            maxURLLength: settings.integer(maxURLLength, .maxURLLength),
            maxHeaderCount: settings.integer(maxHeaderCount, .maxHeaderCount),
            maxHeadSize: settings.integer(maxHeadSize, .maxHeadSize),
            requestHeadTimeout: settings.integer(requestHeadTimeout, .requestHeadTimeout),
            requestBodyGrace: settings.integer(requestBodyGrace, .requestBodyGrace),
            requestBodyMinRate: settings.integer(requestBodyMinRate, .requestBodyMinRate))
        let grace = settings.integer(shutdownGrace, .shutdownGrace)
        let renderCache = settings.integer(renderCacheSize, .renderCacheSize)
        let dataFolder = secrets.dataFolder(&settings)
        let storeText = settings.string(
            store, .store, default: "sqlite:\(dataFolder)/alertd.sqlite",
            show: { "'\(StoreLocation.redacted($0).replacing("'", with: "''"))'" })
        let timelineText = settings.string(timeline, .timeline)
        let leaseSeconds = settings.integer(lease, .lease)
        let deliveries = settings.integer(maxDeliveries, .maxDeliveries)
        let queueLength = settings.integer(maxQueueLength, .maxQueueLength)
        let paced = pacing.resolve(&settings)
        let queueSettings = QueueSettings(
            leaseDuration: Double(leaseSeconds), maxDeliveries: deliveries, maxQueueLength: queueLength,
            recordsEvents: timelineText != "off", profile: paced.profile, bypassPriority: paced.bypassPriority)
        let postgresOptions = PostgresQueueStore.Options(
            maximumConnections: settings.integer(storePoolSize, .storePoolSize),
            requestTimeout: .seconds(settings.integer(storeTimeout, .storeTimeout)),
            notificationSpacing: .milliseconds(settings.integer(storeNotifySpacing, .storeNotifySpacing)))
        let durabilityText = settings.string(durability, .durability)
        let sqliteDurability = SQLiteDurability(rawValue: durabilityText)
        if sqliteDurability == nil {
            settings.report("--durability must be \(SQLiteDurability.allCases.map(\.rawValue).joined(separator: " or ")), not \(durabilityText)")
        }
        let givenAdminToken = settings.optionalString(adminToken, .adminToken)
        let givenSecret = secrets.givenSessionSecret(&settings)
        let catalogFolder = settings.optionalString(catalogs, .catalogs)
        let retentionPeriod = settings.period(retention, .retention)
        let outcomesPeriod = settings.period(outcomesRetention, .outcomesRetention)
        let idlePeriod = settings.period(sessionIdle, .sessionIdle)
        let logs = logging.resolve(&settings)
        settings.reportUnknownFileSettings()

        http.problems.forEach { settings.report($0) }
        if grace < 0 { settings.report("--shutdown-grace must not be negative, not \(grace)") }
        if renderCache < 0 { settings.report("--render-cache-size must not be negative, not \(renderCache)") }
        if queueSettings.leaseDuration < 1 { settings.report("--lease must be at least 1 second") }
        if queueSettings.maxDeliveries < 1 { settings.report("--max-deliveries must be at least 1") }
        if queueSettings.maxQueueLength < 1 { settings.report("--max-queue-length must be at least 1") }
        if !["on", "off"].contains(timelineText) { settings.report("--timeline must be on or off, not \(timelineText)") }
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
        let reload = ReloadSignal()
        let openFiles = ResourceLimits.raiseOpenFileLimit()
        let registry = try CatalogLoading.registry(folder: catalogFolder, command: "alertd") { logger.warning("\($0)") }
        logger.info("catalogs loaded", metadata: ["catalogs": "\(registry.catalogs.map(\.name).joined(separator: ", "))"])
        let credentials = try Credentials.load(
            adminToken: givenAdminToken, sessionSecret: givenSecret, folder: URL(fileURLWithPath: dataFolder))
        // The one clock of the service: the handlers, the long-polls and the store's timers read it.
        let clock = SystemClock()
        let opened = try OpenedStore(
            storeLocation, settings: queueSettings, clock: clock,
            sqlite: (sqliteDurability ?? .full, postgresOptions.requestTimeout), postgres: postgresOptions)
        let queue = QueueServices(store: opened.store, credentials: credentials, settings: queueSettings, clock: clock)
        opened.start(polls: queue.polls, logger: logger)
        logger.info("store opened", metadata: ["store": "\(storeLocation)"])
        for file in credentials.files { logger.info("secret kept (owner only)", metadata: ["file": "\(file)"]) }
        let service = try AlertService(
            catalogs: registry, catalogFolder: catalogFolder.map { URL(fileURLWithPath: $0) }, queue: queue,
            renderCacheSize: renderCache, metrics: metrics, logger: logger)
        reload.onSignal { _ = service.reloadCatalogs(via: "signal") }
        opened.run { await service.outcomes.run() }
        opened.run { await queue.seen.run() }
        opened.atStop {  // the last seen times, while the store still runs
            do {
                let sessions = try await queue.seen.flush()
                if sessions > 0 { logger.info("last-seen times written", metadata: ["sessions": "\(sessions)"]) }
            } catch {
                logger.warning("last-seen times not written at stop", metadata: ["error": "\(error)"])
            }
        }
        if let campaigns = service.campaigns { opened.run { await campaigns.run() } }
        opened.keepHistory(
            HistoryRetention(
                store: opened.store, clock: clock, retention: TimeInterval(retentionPeriod.seconds),
                outcomesRetention: TimeInterval(outcomesPeriod.seconds), logger: logger, rollUps: service.outcomes,
                sessionIdle: TimeInterval(idlePeriod.seconds), seen: queue.seen))
        let server = try HTTPServer(configuration: http, handler: service, observer: service.observer)
        let hostText = http.host.contains(":") ? "[\(http.host)]" : http.host
        say("alertd listening on http://\(hostText):\(server.port)")  // exactly this: supervisors and tests read it
        logger.info(
            "listening",
            metadata: ["url": "http://\(hostText):\(server.port)", "threads": "\(http.threads)", "open_files": "\(openFiles)"])

        termination.wait()
        reload.cancel()
        logger.info("stopping")
        queue.polls.close()  // waiting long-polls answer 204 before the server stops
        server.stop(grace: .seconds(grace))
        opened.stop()  // the store's pool, wake-ups and roll-ups, once no request can use them
        logger.info("stopped")
    }

}
