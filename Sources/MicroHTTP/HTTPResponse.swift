/// A response ready to be written: status, headers and body bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    /// The body: bytes of this response alone (libmicrohttpd copies them), or bytes shared with
    /// others and sent without a copy (see `SharedBytes`).
    var content: Content
    /// Which of the handler's routes answered, as an index of its own choosing; handed to the
    /// `HTTPObserver` (alertd: the router's route index, so metrics need no string lookup). Not
    /// sent.
    public var route: Int?

    enum Content: Sendable {
        case owned([UInt8])
        case shared(SharedBytes)

        /// The body's length in bytes.
        var count: Int {
            switch self {
            case .owned(let bytes): bytes.count
            case .shared(let bytes): bytes.count
            }
        }
    }

    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.content = .owned(body)
    }

    /// A response whose body is sent from `body` without copying it.
    public init(status: Int, headers: HTTPHeaders = [:], body: SharedBytes) {
        self.status = status
        self.headers = headers
        self.content = .shared(body)
    }

    /// A response whose body is UTF-8 text of the given media type.
    public init(status: Int, contentType: String, text: String) {
        self.init(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// The body's bytes (a copy when they are shared). Setting it makes them this response's own.
    public var body: [UInt8] {
        get {
            switch content {
            case .owned(let bytes): bytes
            case .shared(let bytes): bytes.array
            }
        }
        set { content = .owned(newValue) }
    }
}
