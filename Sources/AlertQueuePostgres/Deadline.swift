import Locking

/// Thrown by `withDeadline` when the body did not finish in time.
struct DeadlineExceeded: Error {}

/// Runs `body` and returns its result, or throws `DeadlineExceeded` once `limit` has passed,
/// whichever comes first; throws `CancellationError` as soon as the calling task is cancelled.
///
/// Unlike a task group, this never waits for `body` to notice cancellation: a query sent on a
/// connection whose server has gone silent does not return until the connection dies, and a
/// store call must not wait that long. `body` runs in a task of its own, is cancelled when the
/// deadline passes, and finishes in the background.
func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = Race<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.begin(continuation)
            race.add(
                Task {
                    do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
                })
            race.add(
                Task {
                    guard (try? await Task.sleep(for: limit)) != nil else { return }
                    race.finish(.failure(DeadlineExceeded()))
                })
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The first of several outcomes wins; the tasks of the others are cancelled.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        /// An outcome that came before the continuation (the caller was cancelled at once).
        var early: Result<T, any Error>?
        var decided = false
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state in
            if state.early == nil { state.continuation = continuation }
            return state.early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Keeps `task` to cancel it when the race is decided (at once if it already is).
    func add(_ task: Task<Void, Never>) {
        let decided = state.withLock { state in
            if !state.decided { state.tasks.append(task) }
            return state.decided
        }
        if decided { task.cancel() }
    }

    func finish(_ outcome: Result<T, any Error>) {
        let decided: (CheckedContinuation<T, any Error>?, [Task<Void, Never>])? = state.withLock { state in
            guard !state.decided else { return nil }
            state.decided = true
            let continuation = state.continuation
            if continuation == nil { state.early = outcome }
            defer { state.continuation = nil; state.tasks = [] }
            return (continuation, state.tasks)
        }
        guard let (continuation, tasks) = decided else { return }
        continuation?.resume(with: outcome)
        for task in tasks { task.cancel() }
    }
}
