#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The POSIX calls whose names the client's own methods (`close`, `send`) shadow.
private enum POSIX {
    #if canImport(Glibc)
    static let noSignal = Int32(MSG_NOSIGNAL)
    static let stream = Int32(SOCK_STREAM.rawValue)
    #else
    static let noSignal: Int32 = 0
    static let stream = SOCK_STREAM
    #endif
    static func closeDescriptor(_ fd: Int32) { _ = close(fd) }
    static func sendBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { send(fd, bytes, count, noSignal) }
}

/// A small blocking HTTP/1.1 client over one POSIX TCP socket to 127.0.0.1, for live-server tests.
///
/// It sends exactly the bytes it is given (so tests can send malformed or partial requests),
/// keeps the connection open between requests (keep-alive), and tells whether the server closed
/// it. Every read and write is bounded by `SO_RCVTIMEO`/`SO_SNDTIMEO`, so a silent server makes a
/// test fail instead of hang.
///
/// ```swift
/// let client = try RawHTTPClient(port: port)
/// let response = try client.request("GET", "/livez")
/// #expect(response.status == 200)
/// ```
final class RawHTTPClient {
    private var fd: Int32
    /// Bytes received and not yet consumed by a parsed response.
    private var buffer: [UInt8] = []
    /// The server closed its side (a read returned 0 or the connection was reset).
    private(set) var peerClosed = false

    /// Connects to `host:port` (IPv4 literal), with `timeout` for connecting, each send and each read.
    /// `source` binds the client's own address first (any of 127.0.0.0/8 on Linux), so one test can
    /// be several clients as the server counts them.
    init(port: Int, host: String = "127.0.0.1", timeout: Duration = .seconds(5), source: String? = nil) throws {
        let fd = socket(AF_INET, POSIX.stream, 0)
        guard fd >= 0 else { throw RawHTTPError.system("socket", errno) }
        var tv = timeval(seconds: timeout)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            POSIX.closeDescriptor(fd)
            throw RawHTTPError.system("inet_pton(\(host))", EINVAL)
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1,
                withUnsafePointer(to: &local, {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }) == 0
            else {
                let code = errno
                POSIX.closeDescriptor(fd)
                throw RawHTTPError.system("bind to \(source)", code)
            }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            POSIX.closeDescriptor(fd)
            throw RawHTTPError.system("connect to \(host):\(port)", code)
        }
        self.fd = fd
    }

    deinit { close() }

    /// Closes the connection (idempotent).
    func close() {
        if fd >= 0 {
            POSIX.closeDescriptor(fd)
            fd = -1
        }
    }

    /// Drops the connection with a reset (linger 0), as a client that crashed or lost its network:
    /// the server's next write to it fails.
    func abort() {
        guard fd >= 0 else { return }
        var linger = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    // MARK: Sending

    /// Sends raw bytes as they are. `MSG_NOSIGNAL`: a closed peer is an error, never a SIGPIPE.
    func send(_ bytes: [UInt8]) throws {
        guard fd >= 0 else { throw RawHTTPError.closed("send on a closed client") }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                POSIX.sendBytes(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if sent < 0 {
                if errno == EINTR { continue }
                let code = errno
                if code == EPIPE || code == ECONNRESET { peerClosed = true }
                throw RawHTTPError.system("send", code)
            }
            offset += sent
        }
    }

    /// Sends text as UTF-8 bytes, as it is (write `\r\n` yourself).
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Builds a request head (and body) with `Host` and, when there is a body, `Content-Length`.
    static func requestBytes(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        let names = Set(headers.map { $0.0.lowercased() })
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !names.contains("content-length"), !names.contains("transfer-encoding") {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Sends one request and reads its response.
    func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> RawHTTPResponse {
        try send(Self.requestBytes(method, target, headers: headers, body: body))
        return try readResponse(method: method)
    }

    // MARK: Receiving

    /// Reads one response. `method` tells whether a body follows (never after HEAD).
    func readResponse(method: String = "GET") throws -> RawHTTPResponse {
        let headEnd = try readUntil([13, 10, 13, 10])
        let headBytes = Array(buffer[..<headEnd])
        buffer.removeFirst(headEnd + 4)
        guard let head = String(validating: headBytes, as: UTF8.self) else {
            throw RawHTTPError.malformed("response head is not UTF-8")
        }
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw RawHTTPError.malformed("status line \"\(statusLine)\"")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw RawHTTPError.malformed("header line \"\(line)\"")
            }
            headers.append(
                (name: String(line[..<colon]),
                 value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = RawHTTPResponse(
            version: String(parts[0]), status: status, reason: parts.count > 2 ? String(parts[2]) : "",
            headers: headers, body: [])

        let bodiless = method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304
        if bodiless { return response }
        if let encoding = response.header("Transfer-Encoding"), encoding.lowercased().contains("chunked") {
            response.body = try readChunkedBody()
        } else if let lengthText = response.header("Content-Length") {
            guard let length = Int(lengthText), length >= 0 else {
                throw RawHTTPError.malformed("Content-Length \"\(lengthText)\"")
            }
            response.body = try take(length)
        } else {
            // No length: the body runs to the end of the connection.
            while !peerClosed { try fill() }
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Whether the server closes the connection within `wait` (nothing else arriving meanwhile).
    /// Bytes that do arrive are kept for the next response.
    func closedByPeer(within wait: Duration = .milliseconds(500)) -> Bool {
        if peerClosed { return true }
        guard fd >= 0 else { return true }
        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { return false }
            do { try fill() } catch { return true }
            if peerClosed { return true }
        }
        return false
    }

    /// Index of `marker` in the buffer, reading until it arrives.
    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                let last = buffer.count - marker.count
                if searchFrom <= last {
                    for start in searchFrom...last where buffer[start] == marker[0] {
                        if Array(buffer[start..<start + marker.count]) == marker { return start }
                    }
                    searchFrom = last + 1
                }
            }
            guard !peerClosed else { throw RawHTTPError.closed("the server closed the connection before a full response") }
            try fill()
        }
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard !peerClosed else { throw RawHTTPError.closed("the server closed the connection mid-body") }
            try fill()
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        for _ in 0..<100_000 {
            let lineEnd = try readUntil([13, 10])
            let line = String(decoding: buffer[..<lineEnd], as: UTF8.self)
            buffer.removeFirst(lineEnd + 2)
            let sizeText = line.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw RawHTTPError.malformed("chunk size \"\(line)\"")
            }
            if size == 0 {
                // Trailers end with an empty line.
                while true {
                    let end = try readUntil([13, 10])
                    buffer.removeFirst(end + 2)
                    if end == 0 { return body }
                }
            }
            body += try take(size)
            _ = try take(2)
        }
        throw RawHTTPError.malformed("too many chunks")
    }

    /// One recv() into the buffer; marks `peerClosed` on end of stream.
    private func fill() throws {
        guard fd >= 0 else { throw RawHTTPError.closed("read on a closed client") }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                buffer += chunk[..<received]
                return
            }
            if received == 0 {
                peerClosed = true
                return
            }
            let code = errno
            if code == EINTR { continue }
            if code == ECONNRESET {
                peerClosed = true
                return
            }
            if code == EAGAIN || code == EWOULDBLOCK { throw RawHTTPError.timeout }
            throw RawHTTPError.system("recv", code)
        }
    }
}

extension timeval {
    init(seconds duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
