import AlertQueue
import Logging
import MicroHTTP

/// Turns what a handler gave, or threw, into the response to send: at once, or, for a
/// `PendingResponse`, once it is answered, however many times it waits again.
///
/// A class, so that what a waiting request keeps (the closure `settle` hands to a
/// `PendingResponse`) holds a reference to it and the request, not a copy of the whole service:
/// with 10,000 long-polls waiting, that copy was 190 of the 370 bytes each kept here
/// (heaptrack, scripts/bench/longpolls.py).
final class Answering: Sendable {
    /// Counts the store's 503s.
    private let metrics: ServiceMetrics
    /// The causes of 5xx answers.
    private let logger: Logger

    init(metrics: ServiceMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }

    /// Delivers the response for `outcome`: now, or once a pending one is answered.
    func settle(
        _ outcome: Result<any ResponseGenerator, any Error>, for request: Request, deliver: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        do {
            let generator = try outcome.get()
            if let pending = generator as? PendingResponse {
                pending.start(PendingAnswer(deliver: { [self] in settle($0, for: request, deliver: deliver) }))
            } else {
                deliver(try generator.response(for: request))
            }
        } catch {
            deliver(problem(APIError(error), for: request, cause: error))
        }
    }

    /// The problem response for `error`; a 5xx (but `busy`) is logged at error level with its `cause` (the
    /// client's answer says only that it was logged), its method, path and request id, on one
    /// line: control characters in the path are replaced here, and the log handler escapes any
    /// left in the cause. No header is logged, so no token. A 503 from the store is counted by
    /// its reason; a replaced store file is logged as critical: nothing is written until a restart.
    func problem(_ error: APIError, for request: Request, cause: (any Error)? = nil) -> HTTPResponse {
        if error.isFailure {
            let failure = (cause as? QueueError)?.storeFailure
            if let failure { metrics.storeFailed(failure) }
            let path = String(String.UnicodeScalarView(request.http.path.unicodeScalars.map {
                $0.properties.generalCategory == .control ? "?" : $0
            }))
            logger.log(
                level: failure == .replaced ? .critical : .error,
                "request failed",
                metadata: [
                    "method": .string(request.http.method), "path": .string(path), "status": .stringConvertible(error.status),
                    "request_id": .string(request.http.requestID),
                    "cause": .string(String(describing: cause ?? error).replacing("\n", with: " ")),
                ])
        }
        // Encoding a Problem cannot fail (strings and an integer); keep a plain answer regardless.
        return (try? error.response(for: request))
            ?? HTTPResponse(status: error.status, contentType: "text/plain", text: error.description)
    }
}
