import Foundation
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is and how to log in, read from a connection URL:
///
/// ```
/// postgres://user:password@host:port/database?sslmode=disable
/// postgresql://alertd@%2Fvar%2Frun%2Fpostgresql/alertd      (a Unix socket directory as host)
/// ```
///
/// The user, password and database are percent-decoded; the port defaults to 5432. `sslmode`
/// is `disable`, `prefer` (the default: TLS when the server offers it) or `require` (TLS with the
/// server's certificate verified). Other query items are refused, so a typo is not ignored.
public struct PostgresEndpoint: Sendable, Equatable {
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    /// A host name or address, or the directory of a Unix socket (starts with `/`).
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    public init(host: String, port: Int = 5432, username: String, password: String?, database: String, tls: TLSMode = .prefer) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Reads `url`.
    /// - Throws: `PostgresStoreError.malformedURL` saying what is wrong.
    public init(url: String) throws(PostgresStoreError) {
        func refuse(_ why: String) -> PostgresStoreError { .malformedURL(url: url, reason: why) }
        guard let components = URLComponents(string: url) else {
            throw refuse("it is not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw refuse("it must start with postgres:// or postgresql://")
        }
        guard let host = components.percentEncodedHost?.removingPercentEncoding, !host.isEmpty else { throw refuse("it names no host") }
        guard let username = components.user, !username.isEmpty else { throw refuse("it names no user") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw refuse("its path must be /DATABASE") }
        if let port = components.port, !(1...65535).contains(port) { throw refuse("the port \(port) is out of range") }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else { throw refuse("it has an unknown option \(item.name)") }
            guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                throw refuse("sslmode must be disable, prefer or require")
            }
            tls = mode
        }
        self.init(
            host: host, port: components.port ?? 5432, username: username, password: components.password,
            database: database, tls: tls)
    }

    /// Whether `host` is a Unix socket directory rather than a network host.
    var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The socket file PostgreSQL makes in a socket directory.
    var unixSocketPath: String { "\(host)/.s.PGSQL.\(port)" }

    /// The URL again, without the password (for logs and messages).
    public var redacted: String {
        let host = isUnixSocket ? host.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? host : host
        return "postgres://\(username)@\(host):\(port)/\(database)"
    }

    /// The configuration of a connection to this endpoint.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        if isUnixSocket {
            return PostgresConnection.Configuration(
                unixSocketPath: unixSocketPath, username: username, password: password, database: database)
        }
        let tls: PostgresConnection.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: Self.unverifiedTLS))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        return PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
    }

    /// `prefer` encrypts when the server can, without insisting on a certificate it could not
    /// have (libpq's `sslmode=prefer` does not verify either).
    private static var unverifiedTLS: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }
}
