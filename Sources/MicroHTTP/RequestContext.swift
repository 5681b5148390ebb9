import Glibc
import Locking

/// MHD's per-request state (`*con_cls`): created on the first handler call, released in the
/// completion callback. Only the owning worker thread touches it (a promise, fulfilled from any
/// thread, keeps its state apart).
final class RequestContext: @unchecked Sendable {
    /// Body bytes received so far (never more than the limit).
    var body: [UInt8] = []
    /// The body went past the limit: the rest is drained and the request answered 413.
    var bodyTooLarge = false
    /// A response was already queued (a declared oversized body); later calls only drain.
    var answered = false
    /// The connection was suspended waiting for a promise.
    var suspended = false
    /// The promise of a request answered later; nil for one answered at once (most), which so
    /// makes no lock.
    var promise: ResponsePromise?

    // For the observer (see `FinishedRequest`).
    /// The request's `X-Request-Id`, fixed on the first handler call.
    let requestID: String
    /// `CLOCK_MONOTONIC` at the first handler call, in nanoseconds.
    let started: UInt64
    var method = ""
    var path = ""
    /// What `queue` sent; status 0 while nothing was.
    var status = 0
    var bodyBytes = 0
    var route: Int?

    init(requestID: String) {
        self.requestID = requestID
        self.started = monotonicNanoseconds()
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds: no allocation, no lock (a vDSO call on Linux).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// A promise's side of a request, shared by the worker thread and whoever fulfils it.
struct PromiseState {
    /// The response delivered and not yet sent.
    var response: HTTPResponse?
    /// Fulfilled once; later fulfilments are ignored.
    var fulfilled = false
    /// The connection is suspended: fulfilling must resume it.
    var suspended = false
}

/// The way to answer a request later, from any thread.
///
/// A promise fulfilled while the handler's `start` closure is still running (an async handler
/// that never had to wait) is answered at once, without suspending the connection. Otherwise
/// the connection is suspended and fulfilling resumes it; MHD then calls the handler once more
/// and the response is sent there. Only the first fulfilment counts.
public final class ResponsePromise: Sendable {
    nonisolated(unsafe) private let connection: OpaquePointer
    private unowned let core: ServerCore
    /// What the promise delivered, and whether the connection waits for it.
    let state = Locked(PromiseState())

    init(connection: OpaquePointer, core: ServerCore) {
        self.connection = connection
        self.core = core
    }

    /// Sends `response`. Returns false when the request had already been answered.
    @discardableResult
    public func fulfill(_ response: HTTPResponse) -> Bool {
        // nil: already fulfilled; true: the connection waits suspended and must be resumed.
        let mustResume = state.withLock { state -> Bool? in
            guard !state.fulfilled else { return nil }
            state.fulfilled = true
            state.response = response
            return state.suspended
        }
        guard let mustResume else { return false }
        core.forget(self)
        if mustResume { core.resume(connection) }
        return true
    }
}
