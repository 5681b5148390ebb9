import Dispatch

/// Where async handlers run: threads of their own, not Swift's cooperative pool. The pool has
/// one thread per core; anything in the process that blocks one (a test's socket read, a library
/// doing blocking I/O) would hold up every request waiting for a thread. Measured here: live
/// tests blocking both pool threads left async handlers unanswered until their clients timed out.
final class HandlerExecutor: TaskExecutor {
    static let shared = HandlerExecutor()

    private let queue = DispatchQueue(label: "alertd.handlers", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
