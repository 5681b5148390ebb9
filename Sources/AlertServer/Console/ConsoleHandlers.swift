import MicroHTTP

/// The preview console: `GET /` sends a browser to it, `GET /console` is its gallery,
/// `GET /console/session` the operator's view of one session, and `GET /console/assets/{file}`
/// their styles and scripts. Each file answers with its `ETag` and
/// honours `If-None-Match` (see `ConsoleAssets`); a file the console does not have is the API's
/// usual 404 problem. The console calls the public API only, as any client does.
struct ConsoleHandlers {
    let assets: ConsoleAssets

    /// Where `/` sends a browser.
    static let path = "/console"

    func register(in router: inout Router) {
        let assets = assets
        // 302, not 301: a browser would keep a permanent redirect of `/` for ever.
        let redirect = HTTPResponse(status: 302, headers: ["Location": Self.path, "Cache-Control": "no-cache"], body: [])
        router.add("GET", "/") { _ in redirect }
        for (path, page) in assets.pages.sorted(by: { $0.key < $1.key }) {
            router.add("GET", path) { _ in page }
        }
        router.add("GET", Self.path + "/assets/{file}") { request in
            let name = request.path("file")
            guard let file = assets.assets[name] else {
                throw APIError.notFound("The console has no file \"\(name)\".")
            }
            return file
        }
    }
}
