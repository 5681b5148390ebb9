import AlertServer
@testable import HTTPTestSupport

/// The admin token and session secret of the services tests build.
enum TestCredentials {
    static let adminToken = "test-admin-token"
    static let sessionSecret = "test-session-secret"
    static let credentials = Credentials(adminToken: adminToken, sessionSecret: sessionSecret)
}
