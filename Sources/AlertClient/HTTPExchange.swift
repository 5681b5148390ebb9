import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request through `URLSession`, as async/await on every platform: cancelling the Swift task
/// cancels the request (a long-poll stops waiting at once), and `CancellationError` is thrown.
enum HTTPExchange {
    private enum Slot {
        case idle
        case running(URLSessionDataTask)
        case cancelled
    }

    private struct Completion: @unchecked Sendable {
        var data: Data?
        var response: URLResponse?
        var error: (any Error)?
    }

    /// Sends `request`; throws `CancellationError` when the task is cancelled, and
    /// ``AlertClientError`` (``AlertClientError/Code/transport``) when no answer came.
    static func send(_ request: URLRequest, through session: URLSession) async throws -> HTTPAnswer {
        let slot = Protected(Slot.idle)
        let completion: Completion = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = slot.withLock { slot -> URLSessionDataTask? in
                    if case .cancelled = slot { return nil }
                    let task = session.dataTask(with: request) { data, response, error in
                        continuation.resume(returning: Completion(data: data, response: response, error: error))
                    }
                    slot = .running(task)
                    return task
                }
                if let task {
                    task.resume()
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let running = slot.withLock { slot -> URLSessionDataTask? in
                defer { slot = .cancelled }
                if case .running(let task) = slot { return task }
                return nil
            }
            running?.cancel()
        }
        if let error = completion.error {
            if case .cancelled = slot.withLock({ $0 }) { throw CancellationError() }
            throw AlertClientError.transport(error)
        }
        guard let response = completion.response as? HTTPURLResponse else {
            throw AlertClientError.malformedResponse("not an HTTP answer")
        }
        return HTTPAnswer(response: response, body: completion.data ?? Data())
    }
}

/// A status, its headers and its body.
struct HTTPAnswer {
    var response: HTTPURLResponse
    var body: Data

    var status: Int { response.statusCode }

    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }

    /// The body as `type`; an answer that is not that JSON is ``AlertClientError/Code/malformedResponse``.
    func decode<Body: Decodable>(_ type: Body.Type) throws -> Body {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw AlertClientError.malformedResponse("a \(status) answer that is not the JSON expected: \(error)")
        }
    }

    /// The error for an answer the call does not expect, with its problem+json when it has one.
    func unexpected() -> AlertClientError {
        let mediaType = header("Content-Type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        let problem = mediaType == "application/problem+json" ? try? JSONDecoder().decode(AlertClientError.Problem.self, from: body) : nil
        return .status(status, problem: problem)
    }
}
