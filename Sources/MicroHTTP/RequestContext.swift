import Synchronization

/// MHD's per-request state (`*con_cls`): created on the first handler call, released in the
/// completion callback. Only the owning worker thread touches it, except `pending`, which a
/// promise fulfils from any thread.
final class RequestContext: @unchecked Sendable {
    /// Body bytes received so far (never more than the limit).
    var body: [UInt8] = []
    /// The body went past the limit: the rest is drained and the request answered 413.
    var bodyTooLarge = false
    /// A response was already queued (a declared oversized body); later calls only drain.
    var answered = false
    /// The connection is suspended waiting for `pending`.
    var suspended = false
    /// The response a promise delivered; taken once after the connection resumes.
    let pending = Mutex<HTTPResponse?>(nil)
}

/// The way to answer a suspended request later, from any thread.
///
/// Fulfilling resumes the connection; MHD then calls the handler once more and the response is
/// sent there. Only the first fulfilment counts.
public final class ResponsePromise: Sendable {
    nonisolated(unsafe) private let connection: OpaquePointer
    private let context: RequestContext
    private unowned let core: ServerCore

    init(connection: OpaquePointer, context: RequestContext, core: ServerCore) {
        self.connection = connection
        self.context = context
        self.core = core
    }

    /// Sends `response`. Returns false when the request had already been answered.
    @discardableResult
    public func fulfill(_ response: HTTPResponse) -> Bool {
        let first = context.pending.withLock { pending in
            guard pending == nil else { return false }
            pending = response
            return true
        }
        guard first else { return false }
        core.forget(self)
        core.resume(connection)
        return true
    }
}
