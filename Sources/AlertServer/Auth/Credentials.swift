import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// The files in the data folder that keep generated secrets.
    public static let adminTokenFile = "admin-token"
    public static let sessionSecretFile = "session-secret"

    /// Uses the given values; for each one missing, reads `admin-token` / `session-secret` from
    /// `folder`, creating it (mode 0600) with 32 random bytes when absent.
    public static func load(adminToken: String?, sessionSecret: String?, folder: URL) throws -> Credentials {
        var files: [String] = []
        func secret(_ given: String?, _ name: String) throws -> String {
            if let given, !given.isEmpty { return given }
            let file = folder.appendingPathComponent(name)
            files.append(file.path)
            if let existing = kept(in: file) { return existing }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let value = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URL
            try? FileManager.default.removeItem(at: file)  // empty: left by a start that died writing it
            try writeOwnerOnly(value + "\n", to: file.path)
            return value
        }
        let admin = try secret(adminToken, adminTokenFile)
        let session = try secret(sessionSecret, sessionSecretFile)
        return Credentials(adminToken: admin, sessionSecret: session, files: files)
    }

    /// The session secret `load` would use, without making one: the given value, else the one
    /// kept in `folder`, else nil (none made yet, or its file cannot be read by this user).
    public static func existingSessionSecret(given: String?, folder: URL) -> String? {
        if let given, !given.isEmpty { return given }
        return kept(in: folder.appendingPathComponent(sessionSecretFile))
    }

    /// The secret kept in `file`, or nil when it is missing, unreadable or empty.
    private static func kept(in file: URL) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        return text
    }

    /// Creates `path` with mode 0600 from its first byte (open(2) with O_EXCL: never readable by
    /// others, not even between writing and a later chmod, and never an existing file reused).
    private static func writeOwnerOnly(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
