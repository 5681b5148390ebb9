import Foundation
import MicroHTTP
import Testing

@testable import AlertServer
@testable import AlertdTestSupport

/// The console's routes without a socket: the redirect, the page and its assets, their headers,
/// revalidation, and what the files may and may not hold.
@Suite("Console: the page, its assets and their headers")
struct ConsoleRouteTests {
    let service: AlertService
    let assets: ConsoleAssets

    init() throws {
        service = try AlertService.forTests()
        assets = try ConsoleAssets.bundled()
    }

    private func get(_ path: String, headers: HTTPHeaders = [:], method: String = "GET") -> HTTPResponse {
        service.respond(to: HTTPRequest(method: method, path: path, headers: headers))
    }

    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("GET / sends a browser to /console with a 302")
    func redirect() {
        let response = get("/")
        #expect(response.status == 302)
        #expect(response.headers["Location"] == "/console")
        #expect(response.body.isEmpty)
    }

    @Test("each page is HTML with a strict Content-Security-Policy, nosniff and a strong ETag", arguments: [
        ("/console", "app.js"), ("/console/session", "session.js"),
    ])
    func page(path: String, module: String) throws {
        let response = get(path)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Cache-Control"] == "no-cache")
        let policy = try #require(response.headers["Content-Security-Policy"])
        for directive in ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"] {
            #expect(policy.contains(directive), "\(directive) in \(policy)")
        }
        #expect(!policy.contains("unsafe"))
        let tag = try #require(response.headers["ETag"])
        #expect(tag == EntityTag.strong(for: response.body))
        #expect(text(response).contains(#"<script type="module" src="/console/assets/\#(module)"></script>"#))
    }

    @Test("If-None-Match with the tag is 304 without a body; HEAD has the headers")
    func revalidation() throws {
        for path in ["/console", "/console/session", "/console/assets/app.js"] {
            let first = get(path)
            let tag = try #require(first.headers["ETag"])
            let again = get(path, headers: ["If-None-Match": tag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.headers["ETag"] == tag)
            #expect(get(path, method: "HEAD").headers["ETag"] == tag)
        }
    }

    @Test("every file the page and the modules name is served, with its media type")
    func references() throws {
        var named: Set<String> = []
        #expect(Set(assets.pages.keys) == ["/console", "/console/session"])
        for path in assets.pages.keys {
            let page = text(get(path))
            #expect(!page.isEmpty, "\(path)")
            for match in page.matches(of: /\/console\/assets\/([A-Za-z0-9_.-]+)/) { named.insert(String(match.1)) }
        }
        for (name, _) in assets.assets where name.hasSuffix(".js") {
            let module = text(get("/console/assets/\(name)"))
            for match in module.matches(of: /from "\.\/([A-Za-z0-9_.-]+)"/) { named.insert(String(match.1)) }
        }
        #expect(named.isSuperset(of: ["app.js", "session.js", "console.css", "icon.svg"]))
        for name in named.sorted() {
            let response = get("/console/assets/\(name)")
            #expect(response.status == 200, "\(name)")
            let type = ConsoleAssets.mediaTypes[String(name.split(separator: ".").last ?? "")]
            #expect(response.headers["Content-Type"] == type, "\(name)")
            #expect(response.headers["Content-Security-Policy"] != nil)
        }
        // And nothing is shipped that nothing uses.
        #expect(Set(assets.assets.keys) == named)
    }

    @Test("the files hold no inline script or style and load nothing from another origin")
    func noInlineNoExternal() {
        for path in assets.pages.keys {
            let page = text(get(path))
            #expect(!page.contains("<style"), "\(path)")
            #expect(!page.contains(" style="), "\(path)")
            #expect(page.matches(of: /<script(?![^>]*\ssrc=)/).isEmpty, "\(path)")
            #expect(!page.contains("http://") && !page.contains("https://"), "\(path) names another origin")
        }
        for (name, file) in assets.assets {
            // An SVG names its XML namespace with a URL that is never fetched.
            let body = String(decoding: file.body.array, as: UTF8.self).replacing("xmlns=\"http://www.w3.org/2000/svg\"", with: "")
            #expect(!body.contains("http://") && !body.contains("https://"), "\(name) names another origin")
            if name.hasSuffix(".css") { #expect(!body.contains("@import") && !body.contains("url("), "\(name) loads a resource") }
            #expect(!body.contains("setAttribute(\"style\"") && !body.contains("innerHTML"), "\(name) writes markup or inline style")
        }
    }

    @Test("a file the console does not have is the API's 404 problem", arguments: ["nope.js", "index.html", "session.html", "app.js.map", "..js"])
    func unknownAsset(name: String) throws {
        let response = get("/console/assets/\(name)")
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(text(response).contains("The console has no file"))
    }
}
