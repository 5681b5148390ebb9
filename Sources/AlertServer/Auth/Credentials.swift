import Crypto
import Foundation

/// The admin token and the session secret: given (flags or environment), or generated at first
/// start and kept in the data folder, readable by the owner only, so that they survive restarts.
public struct Credentials: Sendable {
    public let adminToken: String
    public let sessionSecret: String
    /// Where each generated or reused secret lives (empty when both were given).
    public let files: [String]

    public init(adminToken: String, sessionSecret: String, files: [String] = []) {
        self.adminToken = adminToken
        self.sessionSecret = sessionSecret
        self.files = files
    }

    /// Uses the given values; for each one missing, reads `admin-token` / `session-secret` from
    /// `folder`, creating it (mode 0600) with 32 random bytes when absent.
    public static func load(adminToken: String?, sessionSecret: String?, folder: URL) throws -> Credentials {
        var files: [String] = []
        func secret(_ given: String?, _ name: String) throws -> String {
            if let given, !given.isEmpty { return given }
            let file = folder.appendingPathComponent(name)
            files.append(file.path)
            if let existing = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
                !existing.isEmpty
            {
                return existing
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let value = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URL
            guard FileManager.default.createFile(atPath: file.path, contents: Data((value + "\n").utf8), attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path]) }
            return value
        }
        let admin = try secret(adminToken, "admin-token")
        let session = try secret(sessionSecret, "session-secret")
        return Credentials(adminToken: admin, sessionSecret: session, files: files)
    }
}
