import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 `GET` over a plain POSIX socket, blocking, with one deadline for the whole
/// exchange (resolving, connecting, sending, reading). For `alertd healthcheck`, which runs in a
/// bare container: FoundationNetworking's URLSession would load libcurl (and its TLS, LDAP,
/// HTTP/2… libraries) at run time, for a request to a local port.
///
/// ```swift
/// let answer = try HTTPProbe.get(host: "127.0.0.1", port: 8080, path: "/readyz", timeout: .seconds(3))
/// print(answer.status)   // 200
/// ```
public enum HTTPProbe {
    public struct Response: Sendable {
        public var status: Int
        /// Header fields, names lowercased, in the order received.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            let lowered = name.lowercased()
            return headers.first { $0.name == lowered }?.value
        }
    }

    /// Largest answer read; a health answer is a few hundred bytes.
    static let maxResponseSize = 1 << 20

    /// Sends `GET path` to `host:port` (a name, an IPv4 or an IPv6 literal; every address it
    /// resolves to is tried in turn) with `Connection: close`, and reads the whole answer.
    ///
    /// - Throws: `ProbeError` when the host does not resolve, nothing accepts the connection, the
    ///   answer does not come within `timeout`, or it is not HTTP.
    public static func get(host: String, port: Int, path: String, timeout: Duration) throws(ProbeError) -> Response {
        let deadline = ContinuousClock.now + timeout
        let fd = try openConnection(host: host, port: port, deadline: deadline, timeout: timeout)
        defer { _ = close(fd) }
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let request = "GET \(path) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: alertd-healthcheck\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
        try sendAll(Array(request.utf8), on: fd, deadline: deadline, timeout: timeout, to: authority)
        var received: [UInt8] = []
        while true {
            if let response = try parse(received, complete: false) { return response }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            try wait(fd, for: Int16(POLLIN), until: deadline, timeout: timeout, doing: "answer from \(authority)")
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw ProbeError.system("reading from \(authority)", errno)
            }
            if count == 0 {
                guard let response = try parse(received, complete: true) else {
                    throw ProbeError.malformed("\(authority) closed the connection before a whole answer")
                }
                return response
            }
            received += chunk[..<count]
            guard received.count <= maxResponseSize else { throw ProbeError.malformed("the answer from \(authority) is too large") }
        }
    }

    // MARK: - Connecting

    private static func openConnection(host: String, port: Int, deadline: ContinuousClock.Instant, timeout: Duration) throws(ProbeError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw ProbeError.resolve(host, String(cString: gai_strerror(resolved)))
        }
        defer { freeaddrinfo(list) }
        var lastError: ProbeError = .system("connecting to \(host):\(port)", ECONNREFUSED)
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let name = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = .system("connecting to \(name)", errno)
                _ = close(fd)
                continue
            }
            do {
                try wait(fd, for: Int16(POLLOUT), until: deadline, timeout: timeout, doing: "connection to \(name)")
            } catch {
                _ = close(fd)
                throw error
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure == 0 { return fd }
            lastError = .system("connecting to \(name)", failure)
            _ = close(fd)
        }
        throw lastError
    }

    private static func sendAll(_ bytes: [UInt8], on fd: Int32, deadline: ContinuousClock.Instant, timeout: Duration, to name: String) throws(ProbeError) {
        var offset = 0
        while offset < bytes.count {
            try wait(fd, for: Int16(POLLOUT), until: deadline, timeout: timeout, doing: "sending to \(name)")
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw ProbeError.system("sending to \(name)", errno)
            }
            offset += sent
        }
    }

    /// Waits until `fd` is ready for `events`, or throws a timeout at `deadline`.
    private static func wait(
        _ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant, timeout: Duration, doing what: String
    ) throws(ProbeError) {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw ProbeError.timeout(what, timeout) }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw ProbeError.system("waiting for the \(what)", errno)
            }
            if ready > 0 { return }
        }
    }

    // MARK: - Parsing

    /// The response in `bytes`, or nil when more must be read. `complete`: the peer closed, so
    /// a body without a length ends here.
    static func parse(_ bytes: [UInt8], complete: Bool) throws(ProbeError) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.firstRange(of: separator) else {
            if complete { throw ProbeError.malformed("the answer has no complete head") }
            return nil
        }
        let lines = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]), (100...599).contains(status)
        else { throw ProbeError.malformed("not an HTTP answer: \"\(lines[0].prefix(80))\"") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = Response(status: status, headers: headers, body: [])
        let body = Array(bytes[headEnd.upperBound...])
        if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            guard let decoded = try dechunk(body) else {
                if complete { throw ProbeError.malformed("the chunked answer ends early") }
                return nil
            }
            response.body = decoded
        } else if let lengthText = response.header("content-length") {
            guard let length = Int(lengthText), length >= 0 else { throw ProbeError.malformed("bad Content-Length \"\(lengthText)\"") }
            guard body.count >= length else {
                if complete { throw ProbeError.malformed("the answer ends \(length - body.count) bytes early") }
                return nil
            }
            response.body = Array(body.prefix(length))
        } else if status == 204 || status == 304 {
            response.body = []
        } else {
            guard complete else { return nil }
            response.body = body
        }
        return response
    }

    /// A chunked body decoded, or nil when its last chunk has not arrived yet.
    private static func dechunk(_ bytes: [UInt8]) throws(ProbeError) -> [UInt8]? {
        var output: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { return nil }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
                .split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw ProbeError.malformed("bad chunk size \"\(sizeText.prefix(20))\"")
            }
            index = lineEnd.upperBound
            if size == 0 { return output }
            guard bytes.count >= index + size + 2 else { return nil }
            output += bytes[index..<(index + size)]
            index += size + 2
        }
    }
}

/// Why a probe got no answer. A struct around a private enum, so cases can be added.
public struct ProbeError: Error, Sendable, CustomStringConvertible {
    private enum Reason: Sendable {
        case resolve(String, String)
        case system(String, Int32)
        case timeout(String, Duration)
        case malformed(String)
    }

    private let reason: Reason

    static func resolve(_ host: String, _ why: String) -> Self { .init(reason: .resolve(host, why)) }
    static func system(_ doing: String, _ code: Int32) -> Self { .init(reason: .system(doing, code)) }
    static func timeout(_ what: String, _ limit: Duration) -> Self { .init(reason: .timeout(what, limit)) }
    static func malformed(_ what: String) -> Self { .init(reason: .malformed(what)) }

    public var description: String {
        switch reason {
        case .resolve(let host, let why): "cannot resolve \(host): \(why)"
        case .system(let doing, let code): "\(doing): \(String(cString: strerror(code)))"
        case .timeout(let what, let limit): "no \(what) within \(limit.seconds) s"
        case .malformed(let what): what
        }
    }
}

extension Duration {
    /// The duration in seconds, as a short text ("3", "0.5").
    fileprivate var seconds: String {
        let value = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
