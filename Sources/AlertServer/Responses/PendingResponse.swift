import MicroHTTP

/// An answer that is not ready, and waits holding neither a thread nor a task: what a handler
/// returns when nothing can be said until something happens (a long-poll with an empty queue).
///
/// The service calls `start` with a way to answer, and the handler's task ends. Whoever keeps
/// that closure (the long-poll registry) answers once, from any thread: with a response, with
/// another `PendingResponse` (wait again), or with an error (sent as a problem).
///
/// ```swift
/// return PendingResponse { answer in
///     polls.park(session: session, since: generation, until: deadline) {
///         Task { answer(await Result(awaiting: { try await lookAgain() })) }
///     }
/// }
/// ```
public struct PendingResponse: ResponseGenerator, Sendable {
    public typealias Answer = @Sendable (Result<any ResponseGenerator, any Error>) -> Void

    let start: @Sendable (@escaping Answer) -> Void

    public init(start: @escaping @Sendable (@escaping Answer) -> Void) {
        self.start = start
    }

    /// Not an answer by itself: the service starts it instead (see `AlertService`).
    public func response(for request: Request) throws -> HTTPResponse {
        throw APIError.internal
    }
}

extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws.
    init(awaiting body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
