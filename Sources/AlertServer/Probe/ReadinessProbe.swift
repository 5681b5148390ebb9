import Foundation

/// Asks a running alertd whether it is ready (`GET /readyz`): ready on 200 only, otherwise the
/// reason — the problem+json `detail` of a 503, or why no answer came. What `alertd healthcheck`
/// and a container's `HEALTHCHECK` run.
///
/// ```swift
/// let probe = try ReadinessProbe(url: ReadinessProbe.defaultURL(host: "0.0.0.0", port: 8080))
/// switch probe.check(timeout: .seconds(3)) {
/// case .ready: exit(0)
/// case .notReady(let reason): print(reason); exit(1)
/// }
/// ```
public struct ReadinessProbe: Sendable {
    public enum Outcome: Sendable, Equatable {
        case ready
        case notReady(String)
    }

    public let host: String
    public let port: Int
    public let path: String

    /// The URL a probe of a server listening on `host:port` asks: an address that listens on
    /// every interface (`0.0.0.0`, `::`) is asked on the loopback of its family.
    public static func defaultURL(host: String, port: Int) -> String {
        let target =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::", "[::]": "::1"
            default: host
            }
        let authority = target.contains(":") && !target.hasPrefix("[") ? "[\(target)]" : target
        return "http://\(authority):\(port)/readyz"
    }

    /// Parses `http://HOST[:PORT][/PATH]`; a URL without a path (or with `/`) asks `/readyz`.
    /// HOST may be a name, an IPv4 address or a bracketed IPv6 address; PORT defaults to 80.
    public init(url: String) throws(ProbeURLError) {
        guard url.lowercased().hasPrefix("http://") else {
            throw ProbeURLError("expected an http:// URL (alertd speaks plain HTTP), got \"\(url)\"")
        }
        let rest = url.dropFirst("http://".count)
        let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<slash]
        var target = String(rest[slash...])
        if target.isEmpty || target == "/" { target = "/readyz" }
        if target.hasPrefix("?") { target = "/readyz" + target }
        guard !authority.contains("@") else { throw ProbeURLError("a probe URL takes no user or password: \"\(url)\"") }
        var hostPart = Substring(authority)
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw ProbeURLError("unclosed [ in \"\(url)\"") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ProbeURLError("expected :PORT after ] in \"\(url)\"") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw ProbeURLError("no host in \"\(url)\"") }
        var port = 80
        if let portPart {
            guard let given = Int(portPart), (1...65_535).contains(given) else {
                throw ProbeURLError("the port must be 1 to 65535, got \"\(portPart)\" in \"\(url)\"")
            }
            port = given
        }
        guard !target.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw ProbeURLError("the path may not hold blanks or control characters: \"\(url)\"")
        }
        self.host = String(hostPart)
        self.port = port
        self.path = target
    }

    public var url: String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
    }

    /// Asks once, within `timeout`.
    public func check(timeout: Duration) -> Outcome {
        let response: HTTPProbe.Response
        do {
            response = try HTTPProbe.get(host: host, port: port, path: path, timeout: timeout)
        } catch {
            return .notReady("\(url): \(error)")
        }
        if response.status == 200 { return .ready }
        return .notReady("\(url) answered \(response.status): \(Self.reason(in: response))")
    }

    /// The `detail` of a problem+json answer (with its `title`), else the start of the body.
    static func reason(in response: HTTPProbe.Response) -> String {
        struct ProblemText: Decodable {
            var title: String?
            var detail: String?
        }
        if let problem = try? JSONDecoder().decode(ProblemText.self, from: Data(response.body)) {
            switch (problem.title, problem.detail) {
            case (let title?, let detail?): return "\(title): \(detail)"
            case (nil, let detail?): return detail
            case (let title?, nil): return title
            case (nil, nil): break
            }
        }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        return text.isEmpty ? "(no body)" : text
    }
}

/// A probe URL that cannot be used, and why.
public struct ProbeURLError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
