import CMicroHTTPD
import Locking
import Synchronization

// The C callbacks MHD calls on its worker threads. They live in an ordinary file as plain
// functions (never closures in main.swift, which Swift 6 isolates to the main actor) and reach
// Swift objects only through Unmanaged context pointers.

/// MHD's access handler. Per request it is called with the headers (`*con_cls == NULL`), then
/// once per body chunk, then once more with no data: the request is answered there, never on
/// the first call, so keep-alive holds.
func microHTTPAccess(
    cls: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?,
    uploadData: UnsafePointer<CChar>?,
    uploadDataSize: UnsafeMutablePointer<Int>?,
    requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let requestState, let uploadDataSize else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()

    guard let state = requestState.pointee else {
        // First call: headers only. Refuse a head past the limits, or with ambiguous framing,
        // at once (the connection is closed after the answer, so no body need be sent or read).
        let context = RequestContext(requestID: RequestID.accepted(from: connection) ?? RequestID.make())
        requestState.pointee = Unmanaged.passRetained(context).toOpaque()
        core.counts.inFlight.add(1, ordering: .relaxed)
        let slot = connectionState(of: connection)
        context.progress = slot?.progress
        context.progress?.enter(.body, at: context.started)
        if let failure = RequestScreen.check(
            connection: connection, url: url, version: version, target: slot?.target, limits: core.limits)
        {
            context.answered = true
            return reject(failure, core, connection, context, method, url)
        }
        return .YES
    }
    let context = Unmanaged<RequestContext>.fromOpaque(state).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        context.progress?.received(count)
        if context.answered || context.bodyTooLarge { return .YES }
        if context.body.count + count > core.maxBodySize {
            // MHD 0.9.75 refuses a response queued while body data is still arriving (measured:
            // MHD_queue_response returns MHD_NO and the client gets an empty reply), so the rest
            // is drained and the 413 goes out on the final call.
            context.bodyTooLarge = true
            context.body = []
        } else if let uploadData {
            UnsafeRawBufferPointer(start: uploadData, count: count).withMemoryRebound(to: UInt8.self) {
                context.body.append(contentsOf: $0)
            }
        }
        return .YES
    }

    if let progress = context.progress {
        // The whole request arrived: no deadline while it is handled (a long-poll may wait).
        progress.enter(.handling)
        context.progress = nil
    }
    if context.answered { return .YES }
    if context.bodyTooLarge {
        context.answered = true
        return reject(.bodyTooLarge(limit: core.maxBodySize), core, connection, context, method, url)
    }
    if context.suspended, let promise = context.promise {
        // Resumed by the promise: run the work it brought, send what it delivered, or wait again.
        context.suspended = false
        return proceed(with: promise, connection, context)
    }

    let request: HTTPRequest
    switch RequestReader.read(
        connection: connection, method: method, url: url, body: context.body, requestID: context.requestID)
    {
    case .success(let complete): request = complete
    case .failure(let failure):
        context.answered = true
        return reject(failure, core, connection, context, method, url)
    }
    context.body = []
    context.method = request.method
    context.path = request.path

    switch core.handler.handle(request) {
    case .respond(let response):
        context.answered = true
        return queue(response, on: connection, for: context)
    case .later(let start):
        let promise = ResponsePromise(connection: connection, core: core)
        context.promise = promise
        guard core.remember(promise) else {
            context.answered = true
            return reject(.unavailable, core, connection, context, method, url)
        }
        start(promise)
        // Answered while `start` ran (no thread hop, no suspension), or suspend until it is.
        return proceed(with: promise, connection, context)
    }
}

/// Runs the work `promise` brought for this worker thread, then sends its response, or suspends
/// the connection until a fulfilment or more work resumes it.
private func proceed(with promise: ResponsePromise, _ connection: OpaquePointer, _ context: RequestContext) -> MHD_Result {
    while true {
        switch promise.nextStep() {
        case .run(let work):
            for piece in work { piece() }
        case .answer(let response):
            context.answered = true
            return queue(response, on: connection, for: context)
        case .wait:
            context.suspended = true
            return .YES
        }
    }
}

/// MHD's request-line callback (`MHD_OPTION_URI_LOG_CALLBACK`), before MHD splits and decodes
/// the target in place: notes what only the raw target shows (see `RawTarget`). Returns nil, so
/// the access handler's first call still finds no request state.
func microHTTPRequestLine(
    cls: UnsafeMutableRawPointer?, uri: UnsafePointer<CChar>?, connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let uri, let connection, let state = connectionState(of: connection) else { return nil }
    state.target = RawTarget(uri)
    return nil
}

/// MHD's completion callback: the request is over (answered, or the client went away). The
/// observer hears of it here, once the response went out.
func microHTTPCompleted(
    cls: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    reason: MHD_RequestTerminationCode
) {
    guard let cls, let requestState, let state = requestState.pointee else { return }
    requestState.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(state).takeRetainedValue()
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    // The connection waits for its next request (or closes).
    if let connection { connectionState(of: connection)?.progress.enter(.awaitingHead) }
    context.promise?.end(sent: reason.rawValue == 0)  // MHD_REQUEST_TERMINATED_COMPLETED_OK
    if let observer = core.observer, context.status != 0 {
        observer.finished(FinishedRequest(
            method: context.method, path: context.path, status: context.status, bodyBytes: context.bodyBytes,
            nanoseconds: monotonicNanoseconds() &- context.started, requestID: context.requestID, route: context.route))
    }
    core.counts.inFlight.subtract(1, ordering: .relaxed)
}

private func reject(
    _ failure: HTTPRequestFailure, _ core: ServerCore, _ connection: OpaquePointer, _ context: RequestContext,
    _ method: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?
) -> MHD_Result {
    context.method = method.map { String(cString: $0) } ?? ""
    // A path that is not UTF-8 is refused for that; it is not repeated anywhere.
    context.path = url.flatMap { String(validatingCString: $0) } ?? ""
    return queue(core.handler.reject(failure, method: context.method, path: context.path), on: connection, for: context)
}

/// Hands a response to MHD, with the request's `X-Request-Id`: a body of its own is copied (it
/// is small and made for this request); shared bytes are not, MHD holds a retain of them until
/// it destroys the response, and the connection keeps that response for its next request (see
/// `ConnectionResponse`). Notes what was sent for the observer.
func queue(_ response: HTTPResponse, on connection: OpaquePointer, for context: RequestContext) -> MHD_Result {
    context.status = response.status
    context.route = response.route
    context.bodyBytes = response.content.count
    if case .shared(let body) = response.content, let kept = connectionResponse(of: connection) {
        guard let mhdResponse = kept.mhdResponse(for: response, body: body, requestID: context.requestID) else {
            return .NO
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }
    guard let mhdResponse = makeMHDResponse(response.content, headers: response.headers, requestID: context.requestID)
    else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
}

/// A new MHD response with these headers and `X-Request-Id`, or nil when MHD cannot make one.
func makeMHDResponse(_ content: HTTPResponse.Content, headers: HTTPHeaders, requestID: String) -> OpaquePointer? {
    let mhdResponse: OpaquePointer?
    switch content {
    case .owned(let body):
        mhdResponse = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .shared(let body):
        let retained = Unmanaged.passRetained(body).toOpaque()
        mhdResponse = MHD_create_response_from_buffer_with_free_callback_cls(
            body.count, body.baseAddress, microHTTPReleaseSharedBytes, retained)
        if mhdResponse == nil { Unmanaged<SharedBytes>.fromOpaque(retained).release() }
    }
    guard let mhdResponse else { return nil }
    for field in headers {
        addHeader(field.name, field.value, to: mhdResponse)
    }
    addHeader(RequestID.headerName, requestID, to: mhdResponse)
    return mhdResponse
}

/// Adds one header through `withCString`, which hands MHD a native string's own bytes (a short
/// one's from the stack). Passing a `String` as a C string argument instead makes an array of
/// its bytes on the heap each time: two allocations per header, a third of a cache hit's.
private func addHeader(_ name: String, _ value: String, to response: OpaquePointer) {
    name.withCString { name in
        value.withCString { value in _ = MHD_add_response_header(response, name, value) }
    }
}

/// MHD's free callback of a response made from `SharedBytes`: drops the retain `queue` took.
func microHTTPReleaseSharedBytes(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<SharedBytes>.fromOpaque(cls).release()
}
