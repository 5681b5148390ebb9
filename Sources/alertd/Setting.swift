import AlertServer
import ArgumentParser
import Logging
import MicroHTTP

/// One setting of `alertd serve`, declared once: its flag (also its `--config` file key), its
/// `ALERTD_*` variable, its default and its meaning. The options' `--help`, the resolution in
/// `Settings` and `docs/configuration.md` (`alertd config-reference`) are all made from these.
struct Setting {
    /// A setting's default as people see it.
    enum Default {
        /// A number fixed in code: the value used when the setting is not given.
        case number(Int)
        /// A text fixed in code: the value used when the setting is not given.
        case text(String)
        /// Worked out at start (from the cores, the data folder…) or nothing at all; the code
        /// that resolves the setting supplies the value. Light Markdown, like `help`.
        case described(String)
    }

    /// The flag without its dashes, which is also the key in the `--config` file.
    let name: String
    /// The `ALERTD_*` environment variable.
    let environment: String
    let `default`: Default
    /// What the setting means, for `--help` and the reference: light Markdown (backticks for
    /// literal values, which `--help` drops), no final period.
    let help: String
    /// Never shown by `--print-config`, nor quoted in messages.
    var isSecret = false
    /// False for `--config` itself, which names the file.
    var isInConfigFile = true
    /// The placeholder `--help` shows for the value, when not the flag's name.
    var valueName: String? = nil

    var flag: String { "--" + name }

    /// The `@Option` name: the declared one, not one derived from the property.
    var optionName: NameSpecification { .customLong(name) }

    /// The default as text; a literal value is written as `--config` takes it.
    var defaultText: String {
        switch `default` {
        case .number(let value): "\(value)"
        case .text(let value), .described(let value): value
        }
    }

    /// The default for `--help` and `--print-config` notes: plain text.
    var plainDefault: String { Self.plain(defaultText) }

    /// The `@Option` help: the meaning, the variable and the default, in plain text.
    var optionHelp: ArgumentHelp {
        ArgumentHelp("\(Self.plain(help)); \(environment). (default: \(plainDefault))", valueName: valueName)
    }

    /// `--help` is plain text: the Markdown backticks go.
    private static func plain(_ text: String) -> String {
        text.replacing("`", with: "")
    }
}

extension Setting {
    /// The server defaults that `MicroHTTP` fixes, shown as they are.
    private static let server = HTTPServer.Configuration()

    static let config = Setting(
        name: "config", environment: "ALERTD_CONFIG", default: .described("none"),
        help: """
            YAML file of settings, one line each, named as its flag without the dashes (`port: 9090`); flags \
            and `ALERTD_*` variables win over it. `alertd token` and `alertd healthcheck` read it too
            """,
        isInConfigFile: false, valueName: "file")

    static let host = Setting(
        name: "host", environment: "ALERTD_HOST", default: .text(server.host),
        help: "Address to listen on: an IPv4 or IPv6 address, or a host name")

    static let port = Setting(
        name: "port", environment: "ALERTD_PORT", default: .number(server.port),
        help: "Port to listen on; `0` picks a free one, printed at start (`alertd listening on …`)")

    static let store = Setting(
        name: "store", environment: "ALERTD_STORE", default: .described("sqlite:DATA-DIR/alertd.sqlite"),
        help: """
            Queue store: `memory`, `sqlite:PATH`, or `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (also \
            `postgresql://`), through which several instances share the queues. A malformed URL stops start-up \
            with one line, its password hidden
            """)

    static let storePoolSize = Setting(
        name: "store-pool-size", environment: "ALERTD_STORE_POOL_SIZE", default: .number(10),
        help: "PostgreSQL store: connections each instance opens and keeps, plus one that listens for the others' writes")

    static let storeTimeout = Setting(
        name: "store-timeout", environment: "ALERTD_STORE_TIMEOUT", default: .number(5),
        help: """
            Seconds a store call may take before its request answers 503 `store-unavailable` (reason \
            `timeout`). SQLite: a write waiting for its commit (a stalled disk, a lock held by another \
            process); one not begun by then is never written. PostgreSQL: a call, waiting for a connection \
            included; also each statement's `statement_timeout`
            """)

    static let durability = Setting(
        name: "durability", environment: "ALERTD_DURABILITY", default: .text("full"),
        help: """
            SQLite store: what an acknowledged write survives. `full`: a crash of the process or of the \
            machine (each commit is flushed to disk before it is answered, one flush per batch of writes). \
            `process`: a crash of the process only (faster; losing the machine may take back the last writes)
            """)

    static let storeNotifySpacing = Setting(
        name: "store-notify-spacing", environment: "ALERTD_STORE_NOTIFY_SPACING", default: .number(20),
        help: """
            PostgreSQL store: least milliseconds between two NOTIFY statements of this instance, 0 to 500 \
            (past 500 the change sweep would find the writes first). Lower wakes other instances' long-polls \
            sooner under load, and costs the database and every instance more
            """)

    static let dataDir = Setting(
        name: "data-dir", environment: "ALERTD_DATA_DIR", default: .text("./alertd-data"),
        help: "Folder of the default SQLite store and of the generated secrets, created at start if missing")

    static let adminToken = Setting(
        name: "admin-token", environment: "ALERTD_ADMIN_TOKEN",
        default: .described("generated once, kept in `DATA-DIR/\(Credentials.adminTokenFile)`"),
        help: """
            Token for admin calls. Without one, alertd generates one at its first start and keeps it in the data \
            folder, readable by its owner only (mode 0600). Hidden by `--print-config`
            """,
        isSecret: true)

    static let sessionSecret = Setting(
        name: "session-secret", environment: "ALERTD_SESSION_SECRET",
        default: .described("generated once, kept in `DATA-DIR/\(Credentials.sessionSecretFile)`"),
        help: """
            Secret that signs session tokens; `alertd token` signs with the same one. Without one, generated \
            and kept like the admin token. Hidden by `--print-config`
            """,
        isSecret: true)

    static let lease = Setting(
        name: "lease", environment: "ALERTD_LEASE", default: .number(60),
        help: "Seconds a delivered alert stays leased without an ack, before it can be delivered again; at least 1")

    static let maxDeliveries = Setting(
        name: "max-deliveries", environment: "ALERTD_MAX_DELIVERIES", default: .number(5),
        help: "Deliveries without an ack before an alert is dead-lettered; at least 1")

    static let maxQueueLength = Setting(
        name: "max-queue-length", environment: "ALERTD_MAX_QUEUE_LENGTH", default: .number(100),
        help: "Live alerts one session may hold; an enqueue past it answers 429")

    static let timeline = Setting(
        name: "timeline", environment: "ALERTD_TIMELINE", default: .text("on"),
        help: """
            `on`: every change to an item is an event of its timeline, written with the change. `off`: a bare \
            queue that writes none (a row less per change): timelines are empty, history still lists \
            finished items, explain's finished items lack the action and the time they ended, the event \
            feed sees nothing and no outcome is counted
            """)

    static let catalogs = Setting(
        name: "catalogs", environment: "ALERTD_CATALOGS", default: .described("the built-in catalogs only"),
        help: """
            Folder of catalog files (`*.json`, `*.yaml`, `*.yml`), served beside the built-in catalogs; a bad \
            file stops start-up with every problem listed (exit status 2); read again on SIGHUP or \
            POST /v1/catalogs/reload
            """)

    static let maxBodySize = Setting(
        name: "max-body-size", environment: "ALERTD_MAX_BODY_SIZE", default: .number(server.maxBodySize),
        help: "Largest request body in bytes; a larger one is answered 413")

    static let threads = Setting(
        name: "threads", environment: "ALERTD_THREADS", default: .described("one per core"),
        help: """
            Worker threads, each with its own poll() loop. More of them shorten the list of suspended long-polls \
            a worker walks at every resume (libmicrohttpd), at more memory per waiting long-poll (measured: \
            5.8–6.8 KiB with 2 workers, 7.3–9.3 with 3, 8.4–9.8 with 4, at 4 KiB of `--connection-memory`)
            """)

    static let connectionLimit = Setting(
        name: "connection-limit", environment: "ALERTD_CONNECTION_LIMIT", default: .number(server.connectionLimit),
        help: "Connections held at once, in total; every waiting long-poll holds one")

    static let perClientConnectionLimit = Setting(
        name: "per-client-connection-limit", environment: "ALERTD_PER_CLIENT_CONNECTION_LIMIT",
        default: .number(server.perClientConnectionLimit),
        help: """
            Connections held at once from one client — an IPv4 address, or the /64 prefix of an IPv6 address — \
            so that a flood from one client cannot take every slot; more are closed at once; `0`: no limit. Behind \
            a reverse proxy every connection comes from the proxy: raise it or set `0` there
            """)

    static let connectionMemory = Setting(
        name: "connection-memory", environment: "ALERTD_CONNECTION_MEMORY", default: .number(server.connectionMemoryLimit),
        help: """
            Bytes per connection for the request line, headers, parsed cookies and buffers; half of it reads the \
            head. The default parses any head within `--max-head-size` and `--max-header-count` with up to 180 \
            cookies (keep it at 3 × `--max-head-size`); a head that does not fit gets libmicrohttpd's own 431 and \
            a closed connection. Each connection that served a request holds this much, waiting long-polls included
            """)

    static let maxURLLength = Setting(
        name: "max-url-length", environment: "ALERTD_MAX_URL_LENGTH", default: .number(server.maxURLLength),
        help: "Longest path and query string in bytes, after percent-decoding; a longer one is answered 414")

    static let maxHeaderCount = Setting(
        name: "max-header-count", environment: "ALERTD_MAX_HEADER_COUNT", default: .number(server.maxHeaderCount),
        help: "Most header fields in one request; more are answered 431")

    static let maxHeadSize = Setting(
        name: "max-head-size", environment: "ALERTD_MAX_HEAD_SIZE", default: .number(server.maxHeadSize),
        help: "Most bytes of a request line and header lines, cookies included; more are answered 431")

    static let requestHeadTimeout = Setting(
        name: "request-head-timeout", environment: "ALERTD_REQUEST_HEAD_TIMEOUT",
        default: .number(server.requestHeadTimeout),
        help: """
            Seconds a request's head may take from its first byte to its end; a slower one is closed (no 408). \
            The wait for a request's first byte is `--connection-timeout`
            """)

    static let requestBodyGrace = Setting(
        name: "request-body-grace", environment: "ALERTD_REQUEST_BODY_GRACE", default: .number(server.requestBodyGrace),
        help: "Seconds a request body gets before it must keep up `--request-body-min-rate`")

    static let requestBodyMinRate = Setting(
        name: "request-body-min-rate", environment: "ALERTD_REQUEST_BODY_MIN_RATE",
        default: .number(server.requestBodyMinRate),
        help: """
            Bytes a second a request body must average after `--request-body-grace`: a body of N bytes must \
            arrive within the grace plus N ÷ this many seconds, else the connection is closed (no 408). A request \
            being answered, a waiting long-poll included, has no deadline
            """)

    static let connectionTimeout = Setting(
        name: "connection-timeout", environment: "ALERTD_CONNECTION_TIMEOUT", default: .number(server.connectionTimeout),
        help: """
            Seconds a connection may stay idle — before a request's first byte, or while its answer is not read — \
            before it is closed (closing is the answer: no 408). A request that has begun has its own deadlines \
            (`--request-head-timeout`, `--request-body-min-rate`)
            """)

    static let shutdownGrace = Setting(
        name: "shutdown-grace", environment: "ALERTD_SHUTDOWN_GRACE", default: .number(10),
        help: """
            Seconds requests in flight get to finish on SIGINT or SIGTERM (waiting long-polls answer 204 at \
            once); not negative
            """)

    static let renderCacheSize = Setting(
        name: "render-cache-size", environment: "ALERTD_RENDER_CACHE_SIZE", default: .number(4096),
        help: """
            Rendered alerts kept (alert, parameters, locale), shared by `GET …/alerts/{type}` and the queue; \
            once full, a new one is kept the second time it is asked for, so one-off parameters do not push \
            out the alerts in use; `0` keeps none. As many answers of the catalog routes are kept by request \
            (path, query, Accept-Language) and given again before routing
            """)

    static let retention = Setting(
        name: "retention", environment: "ALERTD_RETENTION", default: .text("30d"),
        help: """
            How long finished alerts (done, cancelled, expired, dead) and their timelines are kept, as `30d`, \
            `12h`, `15m` or `90s`; older ones are deleted in the background, in small batches
            """)

    static let outcomesRetention = Setting(
        name: "outcomes-retention", environment: "ALERTD_OUTCOMES_RETENTION", default: .text("400d"),
        help: "How long the daily roll-ups of alert outcomes are kept, as `400d`, `12h`, `15m` or `90s`")

    static let sessionIdle = Setting(
        name: "session-idle", environment: "ALERTD_SESSION_IDLE", default: .text("90d"),
        help: """
            How long a session may go unseen (no token issued, no call with its token) before it is forgotten, \
            as `90d`, `12h`, `15m` or `90s`: erased as `DELETE /v1/sessions/{session}` erases it (items, timelines, \
            hold, user and topics), in the background, in small batches
            """)

    static let logFormat = Setting(
        name: "log-format", environment: "ALERTD_LOG_FORMAT", default: .text(LogFormat.text.rawValue),
        help: "Log lines on standard error as `text` (for people) or `json` (one object per line)")

    static let logLevel = Setting(
        name: "log-level", environment: "ALERTD_LOG_LEVEL", default: .text(Logger.Level.info.rawValue),
        help: """
            Least severe level logged: `trace`, `debug`, `info` (a line per request), `notice`, `warning`, \
            `error`, `critical`
            """)

    /// Every setting of `alertd serve`, in the reference's order.
    static let all: [Setting] = [
        config, host, port, store, storePoolSize, storeTimeout, durability, storeNotifySpacing, dataDir, adminToken,
        sessionSecret, lease, maxDeliveries, maxQueueLength, timeline, catalogs, maxBodySize, threads, connectionLimit,
        perClientConnectionLimit, connectionMemory, maxURLLength, maxHeaderCount, maxHeadSize, connectionTimeout,
        requestHeadTimeout, requestBodyGrace, requestBodyMinRate, shutdownGrace, renderCacheSize, retention, outcomesRetention,
        sessionIdle, minModalGap, maxModalsPerDay, quietHours, timeZone, pacingBypassPriority, logFormat, logLevel,
    ]
}
