// swift-tools-version:6.1
import PackageDescription

/// One set of language settings for every target, so the whole package moves together.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "alertd",
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .executable(name: "alertd", targets: ["alertd"]),
        // The shared model: spec types, AlertTarget, validation. Foundation only, so an iOS app
        // can depend on it and decode specs with the server's own code.
        .library(name: "AlertSpec", targets: ["AlertSpec"]),
        // An app's client of alertd (URLSession): render with ETag caching, next, ack.
        .library(name: "AlertClient", targets: ["AlertClient"]),
        // Not API: the modules the fuzz targets drive, for the separate package in Fuzz/ (a
        // package can only depend on another's products). Underscored so no one mistakes it.
        .library(name: "_AlertdFuzzing", targets: ["AlertServer", "AlertCatalogs", "AlertQueue", "AlertQueueSQLite", "MicroHTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // A value behind a pthread mutex: the shared-state lock of every server module (see
        // Locked.swift for why not Synchronization.Mutex).
        .target(
            name: "Locking",
            swiftSettings: swiftSettings
        ),
        // libmicrohttpd and a header of non-variadic wrappers. Only MicroHTTP imports it.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(
            name: "MicroHTTP",
            dependencies: ["CMicroHTTPD", "Locking"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AlertSpec",
            swiftSettings: swiftSettings
        ),
        // Foundation (and FoundationNetworking on Linux) and AlertSpec only, like AlertSpec itself.
        .target(
            name: "AlertClient",
            dependencies: ["AlertSpec"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AlertCatalogs",
            dependencies: ["AlertSpec", "Locking", .product(name: "Yams", package: "Yams")],
            // Linux has no xcstrings compiler: the String Catalogs ship as they are and are read
            // at start-up.
            resources: [.copy("Resources/app.xcstrings"), .copy("Resources/onboarding.xcstrings")],
            swiftSettings: swiftSettings
        ),
        // The queue core: the semantics (QueuePolicy), the item model, the store protocol and the
        // clock. No third-party dependency, so every user of the abstraction links no database.
        .target(
            name: "AlertQueue",
            dependencies: ["AlertSpec", "Locking"],
            swiftSettings: swiftSettings
        ),
        // The SQLite queue store (one process; a file, or memory).
        .target(
            name: "AlertQueueSQLite",
            dependencies: [
                "AlertQueue", "AlertSpec", "Locking", .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_wal_hook, which GRDB does not wrap (see Checkpointer.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL queue store, for several instances sharing the queues.
        .target(
            name: "AlertQueuePostgres",
            dependencies: [
                "AlertQueue", "AlertSpec", "Locking", .product(name: "PostgresNIO", package: "postgres-nio"),
                // Only to recognise its pool's "circuit breaker tripped" error (see PostgresPool).
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Throwaway PostgreSQL clusters for tests (initdb + pg_ctl as the postgres user). Not a test
        // target, so that every test target that needs a database can depend on it.
        .target(
            name: "PostgresTestSupport",
            dependencies: ["ChildProcesses", "Locking", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Tests/PostgresTestSupport",
            swiftSettings: swiftSettings
        ),
        // Child processes started with posix_spawn, for the tests that run programs.
        .target(
            name: "ChildProcesses",
            dependencies: ["Locking"],
            path: "Tests/ChildProcesses",
            swiftSettings: swiftSettings
        ),
        // `OwnThread`: a test's async work on a thread of its own, off Swift's shared pool that the
        // blocking live tests keep busy.
        .target(
            name: "TestExecutors",
            path: "Tests/TestExecutors",
            swiftSettings: swiftSettings
        ),
        // A raw HTTP/1.1 client over a socket, for tests that see the bytes a server sends.
        .target(
            name: "HTTPTestSupport",
            path: "Tests/HTTPTestSupport",
            swiftSettings: swiftSettings
        ),
        // Running `alertd` children and talking to them: processes, PostgreSQL-backed instances,
        // a session's queue client and the wire shapes of the answers.
        .target(
            name: "AlertdTestSupport",
            dependencies: [
                "AlertServer", "AlertCatalogs", "AlertSpec", "AlertQueue", "ChildProcesses", "Locking", "MicroHTTP",
                "HTTPTestSupport",
            ],
            path: "Tests/AlertdTestSupport",
            swiftSettings: swiftSettings
        ),
        // `ManualClock`: time that moves when a test says so, instead of sleeps.
        .target(
            name: "TestClocks",
            dependencies: ["AlertQueue", "Locking"],
            path: "Tests/TestClocks",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AlertServer",
            dependencies: [
                "MicroHTTP", "AlertSpec", "AlertCatalogs", "AlertQueue", "Locking",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The console's files are served as they are: plain HTML, CSS and JavaScript modules.
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/console")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "alertd",
            dependencies: [
                "AlertServer", "AlertCatalogs", "AlertSpec", "AlertQueue", "AlertQueueSQLite", "AlertQueuePostgres", "MicroHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),  // the --config file
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            // mimalloc replaces glibc's malloc for the whole process in release builds: first in
            // the binary's list of libraries, its malloc and free are the ones every library
            // calls. Measured side by side (the same build with and without it): render hits
            // 1.12 x per second at 0.88 x the CPU, enqueues about 1.08 x; the same memory per
            // waiting long-poll. Debug builds, which the tests and the sanitizers use (ASan and
            // TSan bring their own allocator), keep glibc's.
            linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux], configuration: .release))]
        ),
        .testTarget(
            name: "AlertSpecTests",
            dependencies: ["AlertSpec"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AlertCatalogsTests",
            dependencies: ["AlertCatalogs", "AlertSpec", "Locking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AlertQueueTests",
            dependencies: [
                "AlertQueue", "AlertQueueSQLite", "AlertSpec", "AlertQueuePostgres", "Locking", "PostgresTestSupport", "TestExecutors",
                "TestClocks",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MicroHTTPTests",
            dependencies: ["MicroHTTP", "Locking", "HTTPTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AlertServerTests",
            dependencies: [
                "AlertServer", "AlertCatalogs", "AlertSpec", "AlertQueue", "AlertQueueSQLite", "Locking", "MicroHTTP",
                "TestExecutors", "TestClocks", "HTTPTestSupport", "AlertdTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AlertClientTests",
            dependencies: ["AlertClient", "AlertSpec", "TestExecutors", "HTTPTestSupport", "AlertdTestSupport"],
            swiftSettings: swiftSettings
        ),
        // The command line, run as a child process: serve, token, validate, healthcheck; several
        // instances on one PostgreSQL database; crashes and shutdown.
        .testTarget(
            name: "AlertdTests",
            dependencies: [
                "AlertServer", "AlertSpec", "AlertCatalogs", "Locking", "MicroHTTP", "PostgresTestSupport", "TestExecutors",
                "HTTPTestSupport", "AlertdTestSupport", "ChildProcesses",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
