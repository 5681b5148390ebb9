import AlertQueue
import Foundation
import Testing

@testable import AlertQueuePostgres

/// Reading `--store postgres://…` and the store's options.
@Suite("PostgreSQL connection URL")
struct PostgresEndpointTests {
    @Test("A full URL gives host, port, user, password, database and TLS mode")
    func fullURL() throws {
        let endpoint = try PostgresEndpoint(url: "postgres://alertd:s%40cret@db.internal:6543/queues?sslmode=require")
        #expect(endpoint == PostgresEndpoint(
            host: "db.internal", port: 6543, username: "alertd", password: "s@cret", database: "queues", tls: .require))
        #expect(endpoint.redacted == "postgres://alertd@db.internal:6543/queues")
    }

    @Test("postgresql:// works too; the port defaults to 5432, the password to none, TLS to prefer")
    func defaults() throws {
        let endpoint = try PostgresEndpoint(url: "postgresql://alertd@localhost/alertd")
        #expect(endpoint == PostgresEndpoint(host: "localhost", port: 5432, username: "alertd", password: nil, database: "alertd"))
        #expect(endpoint.tls == .prefer)
    }

    @Test("A percent-encoded directory as host means a Unix socket")
    func unixSocket() throws {
        let endpoint = try PostgresEndpoint(url: "postgres://alertd@%2Fvar%2Frun%2Fpostgresql/alertd")
        #expect(endpoint.isUnixSocket)
        #expect(endpoint.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5432")
    }

    @Test(
        "A URL that cannot be used is refused, saying why, without its password",
        arguments: [
            ("mysql://u:pw@h/db", "postgres://"),
            ("postgres://h/db", "no user"),
            ("postgres://u:pw@h", "/DATABASE"),
            ("postgres://u:pw@h/a/b", "/DATABASE"),
            ("postgres://u:pw@h/db?pool=3", "unknown option pool"),
            ("postgres://u:pw@h/db?sslmode=verify-full", "sslmode"),
            ("postgres://u:pw@:5432/db", "no host"),
            ("not a url at all", "postgres://"),
        ])
    func refused(url: String, reason: String) {
        let error = #expect(throws: PostgresStoreError.self) { try PostgresEndpoint(url: url) }
        #expect(error?.description.contains(reason) == true)
        #expect(error?.description.contains("pw") == false)
    }

    @Test("The store refuses options out of range")
    func invalidOptions() {
        let url = "postgres://u@localhost/db"
        #expect(throws: PostgresStoreError.self) {
            try PostgresQueueStore(url: url, options: .init(maximumConnections: 0))
        }
        #expect(throws: PostgresStoreError.self) {
            try PostgresQueueStore(url: url, options: .init(maximumConnections: 2, minimumConnections: 3))
        }
        #expect(throws: PostgresStoreError.self) {
            try PostgresQueueStore(url: url, options: .init(maximumConnections: 2, minimumConnections: -1))
        }
        #expect(throws: PostgresStoreError.self) {
            try PostgresQueueStore(url: url, options: .init(keepAliveInterval: .zero))
        }
        // By default every connection is kept open.
        #expect(PostgresQueueStore.Options(maximumConnections: 4).minimumConnections == 4)
        #expect(throws: PostgresStoreError.self) {
            try PostgresQueueStore(url: url, options: .init(requestTimeout: .zero))
        }
        #expect(throws: PostgresStoreError.self) {
            try PostgresQueueStore(url: url, options: .init(channel: ""))
        }
    }

    @Test("Every connection is told the statement timeout of a call")
    func sessionParameters() {
        let parameters = PostgresQueueStore.sessionParameters(.init(requestTimeout: .milliseconds(2500)))
        #expect(parameters.first { $0.0 == "statement_timeout" }?.1 == "2500")
    }
}
