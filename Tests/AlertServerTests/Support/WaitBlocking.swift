import Dispatch
import Locking
import TestExecutors

/// Runs `work` on a thread of its own and waits for it: a live server's test body is synchronous.
func waitBlocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<T, any Error>?>(nil)
    Task(executorPreference: OwnThread()) {
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}
