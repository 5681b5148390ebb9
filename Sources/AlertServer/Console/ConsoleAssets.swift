import Foundation
import MicroHTTP

/// The preview console's static files (HTML, CSS, JavaScript modules), shipped in this module's
/// resources and read once at start-up: each answered from memory with a strong `ETag`,
/// `Cache-Control: no-cache` (a client revalidates each time and gets a 304 while the binary is
/// the same, so modules of two versions are never mixed after an upgrade), and the headers that
/// keep a browser strict about them (see `securityHeaders`).
struct ConsoleAssets: Sendable {
    /// The pages, by the path each is served at (see `pagePaths`).
    let pages: [String: CacheableResponse]
    /// The other files, by name, served at `/console/assets/<name>`.
    let assets: [String: CacheableResponse]

    /// The pages' files among the bundled ones and their paths: the gallery and the operator's
    /// view of one session. Every other file is an asset.
    static let pagePaths = ["index.html": "/console", "session.html": "/console/session"]

    /// Only the console's own origin: no inline script or style (its styles are set through the
    /// CSSOM, which CSP allows), no plugins, no framing, no base or form target elsewhere.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "font-src 'self'",
        "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Sent with every console file.
    static let securityHeaders: HTTPHeaders = [
        "Content-Security-Policy": contentSecurityPolicy,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    ]

    /// The media types of the files the console ships, by extension; a file of another kind
    /// in the folder is a packaging mistake.
    static let mediaTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
    ]

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The files of `folder`, its sub-folders ignored.
    init(folder: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var files: [String: CacheableResponse] = [:]
        for name in names {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard let type = Self.mediaTypes[url.pathExtension] else {
                throw Missing(description: "The console file \(name) is of no kind the console serves.")
            }
            let bytes = Array(try Data(contentsOf: url))
            files[name] = CacheableResponse(
                json: bytes, etag: EntityTag.strong(for: bytes), cacheControl: "no-cache", extra: Self.securityHeaders,
                contentType: type)
        }
        var pages: [String: CacheableResponse] = [:]
        for (name, path) in Self.pagePaths {
            guard let page = files.removeValue(forKey: name) else {
                throw Missing(description: "The console's \(name) is not in \(folder.path).")
            }
            pages[path] = page
        }
        self.pages = pages
        self.assets = files
    }

    /// The console shipped in this module's resources.
    static func bundled() throws -> ConsoleAssets {
        guard let folder = Bundle.module.url(forResource: "console", withExtension: nil) else {
            throw Missing(description: "The console's files are not bundled.")
        }
        return try ConsoleAssets(folder: folder)
    }
}
