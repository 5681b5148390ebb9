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
    /// The connection's deadline phase, until the whole request has arrived.
    var progress: RequestProgress?

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
