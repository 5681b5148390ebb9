import CMicroHTTPD

/// The last response a connection sent from shared bytes, kept to be sent again on that
/// connection.
///
/// A client on a keep-alive connection often asks for the same thing again: an app revalidating
/// its specs, a load balancer's probe, a benchmark. Building an MHD response takes an allocation
/// for it and three for each header (MHD checks and copies every name and value): about 7,000 of
/// a cache hit's 34,000 instructions for a spec's six headers. When the next response has the
/// same body (the same `SharedBytes` object), status and header list (the same storage, as a
/// cache entry's is), the kept one is queued again and only its `X-Request-Id` is swapped.
///
/// Changing headers of a response that was queued is safe here because one connection answers
/// one request at a time: MHD drops its reference to a response (`connection_reset`) before it
/// reads the connection's next request, and only the connection's own worker thread calls the
/// access handler. The connection's `ConnectionState` holds it; dropping it when the connection
/// closes releases the response.
final class ConnectionResponse {
    private var response: OpaquePointer?
    private var body: SharedBytes?
    /// Held so that its storage cannot be reused for other fields: the same storage then means
    /// the same fields.
    private var headers = HTTPHeaders()
    private var status = 0
    private var requestID = ""

    /// An MHD response for `response`, whose body is `body`, carrying `requestID`: the kept one
    /// when it matches, or a new one, kept in its place. Nil when MHD cannot make one.
    func mhdResponse(for response: HTTPResponse, body: SharedBytes, requestID: String) -> OpaquePointer? {
        if let kept = self.response, self.body === body, status == response.status,
            headers.hasSameStorage(as: response.headers)
        {
            if self.requestID != requestID {
                RequestID.headerName.withCString { name in
                    _ = self.requestID.withCString { MHD_del_response_header(kept, name, $0) }
                    _ = requestID.withCString { MHD_add_response_header(kept, name, $0) }
                }
                self.requestID = requestID
            }
            return kept
        }
        guard let made = makeMHDResponse(response.content, headers: response.headers, requestID: requestID) else {
            return nil
        }
        if let old = self.response { MHD_destroy_response(old) }
        self.response = made
        self.body = body
        self.headers = response.headers
        status = response.status
        self.requestID = requestID
        return made
    }

    deinit {
        if let response { MHD_destroy_response(response) }
    }
}
