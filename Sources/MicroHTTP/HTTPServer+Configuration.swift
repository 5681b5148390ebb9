import Foundation

extension HTTPServer {
    /// How the server listens and what it allows one client. Every limit is explicit: MHD's own
    /// defaults (no connection timeout, a limit tied to FD_SETSIZE) are not what a service wants.
    public struct Configuration: Sendable {
        /// Address to bind: an IPv4 or IPv6 literal or a host name (`127.0.0.1`, `::1`, `localhost`).
        public var host: String
        /// Port; 0 picks a free one (read it back from `HTTPServer.port`).
        public var port: Int
        /// Worker threads, each running its own poll() loop. Defaults to the number of cores.
        public var threads: Int
        /// Connections held at once, in total.
        public var connectionLimit: Int
        /// Connections held at once from one client (an IPv4 address, or the /64 prefix of an
        /// IPv6 one); 0 means no per-client limit. Connections past it are closed at once, so a
        /// flood from one client cannot take every slot. Behind a reverse proxy every
        /// connection comes from the proxy's address: raise it there, or set 0.
        public var perClientConnectionLimit: Int
        /// Bytes MHD may use for one connection's request line, headers, parsed cookies and
        /// buffers (half of it is the read buffer). Every open connection that served a request
        /// holds this much (MHD clears the whole pool between requests). 48 KiB parses any head
        /// within the default limits (16 KiB, 100 fields, 180 cookies), measured; a head that
        /// does not fit gets libmicrohttpd's own 431 or 414 and a closed connection.
        public var connectionMemoryLimit: Int
        /// Seconds a connection may sit idle between requests (or while its response is read)
        /// before it is closed.
        public var connectionTimeout: Int
        /// Largest request body accepted; larger ones are answered 413.
        public var maxBodySize: Int
        /// Longest path plus query string accepted, in bytes after percent-decoding; longer ones
        /// are answered 414. (A request line that does not fit in `connectionMemoryLimit` is
        /// refused by libmicrohttpd itself, with its own 414 and a closed connection.)
        public var maxURLLength: Int
        /// Most header fields one request may carry; more are answered 431.
        public var maxHeaderCount: Int
        /// Most bytes of a request line and header lines (cookies included); more are answered 431.
        public var maxHeadSize: Int
        /// Seconds a request head may take from its first byte to its end; later, the connection
        /// is closed.
        public var requestHeadTimeout: Int
        /// Seconds a body gets before it must keep up `requestBodyMinRate`.
        public var requestBodyGrace: Int
        /// Bytes a second a body must average after `requestBodyGrace`; slower, the connection is
        /// closed.
        public var requestBodyMinRate: Int
        /// listen() backlog.
        public var listenBacklog: Int
        /// Requests waiting for their promise from which the server counts as crowded (see
        /// `ServerCore.isCrowded`). Not public: tests lower it.
        var crowd = ServerCore.crowd

        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount,
            connectionLimit: Int = 16_384,
            perClientConnectionLimit: Int = 128,
            connectionMemoryLimit: Int = 48 * 1024,
            connectionTimeout: Int = 30,
            maxBodySize: Int = 1024 * 1024,
            maxURLLength: Int = 2048,
            maxHeaderCount: Int = 100,
            listenBacklog: Int = 4096,
            maxHeadSize: Int = 16 * 1024,
            requestHeadTimeout: Int = 10,
            requestBodyGrace: Int = 10,
            requestBodyMinRate: Int = 1024
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionLimit = connectionLimit
            self.perClientConnectionLimit = perClientConnectionLimit
            self.connectionMemoryLimit = connectionMemoryLimit
            self.connectionTimeout = connectionTimeout
            self.maxBodySize = maxBodySize
            self.maxURLLength = maxURLLength
            self.maxHeaderCount = maxHeaderCount
            self.listenBacklog = listenBacklog
            self.maxHeadSize = maxHeadSize
            self.requestHeadTimeout = requestHeadTimeout
            self.requestBodyGrace = requestBodyGrace
            self.requestBodyMinRate = requestBodyMinRate
        }

        /// Problems with the values, one sentence each; empty when the configuration is usable.
        public var problems: [String] {
            var problems: [String] = []
            if !(0...65_535).contains(port) { problems.append("port must be 0…65535, not \(port)") }
            if threads < 1 { problems.append("threads must be at least 1, not \(threads)") }
            if connectionLimit < 1 { problems.append("connection limit must be at least 1, not \(connectionLimit)") }
            if perClientConnectionLimit < 0 {
                problems.append("per-client connection limit must be 0 (none) or more, not \(perClientConnectionLimit)")
            }
            if connectionMemoryLimit < 4096 {
                problems.append("connection memory limit must be at least 4096 bytes, not \(connectionMemoryLimit)")
            }
            if connectionTimeout < 1 { problems.append("connection timeout must be at least 1 second, not \(connectionTimeout)") }
            if maxBodySize < 0 { problems.append("body size limit must not be negative, not \(maxBodySize)") }
            if maxURLLength < 64 { problems.append("URL length limit must be at least 64 bytes, not \(maxURLLength)") }
            if maxHeaderCount < 8 { problems.append("header count limit must be at least 8, not \(maxHeaderCount)") }
            if maxHeadSize < 1024 { problems.append("head size limit must be at least 1024 bytes, not \(maxHeadSize)") }
            if requestHeadTimeout < 1 { problems.append("request head timeout must be at least 1 second, not \(requestHeadTimeout)") }
            if requestBodyGrace < 1 { problems.append("request body grace must be at least 1 second, not \(requestBodyGrace)") }
            if requestBodyMinRate < 1 {
                problems.append("request body minimum rate must be at least 1 byte a second, not \(requestBodyMinRate)")
            }
            if listenBacklog < 1 { problems.append("listen backlog must be at least 1, not \(listenBacklog)") }
            return problems
        }
    }
}
