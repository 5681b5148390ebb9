import Dispatch
import MicroHTTP

/// Where the looks of woken long-polls run: threads of their own, not Swift's cooperative pool.
/// The pool has one thread per core; anything in the process that blocks one (a test's socket
/// read, a library doing blocking I/O) would hold up every request waiting for a thread.
/// Measured here: live tests blocking both pool threads left async handlers unanswered until
/// their clients timed out.
final class HandlerExecutor: TaskExecutor {
    static let shared = HandlerExecutor()

    private let queue = DispatchQueue(label: "alertd.handlers", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// Where a request's async handler runs: on the worker thread that serves its connection
/// (see `ResponsePromise.execute`), which is also where the response is sent; on Dispatch's
/// threads once the request is over, or when a job would resume the connection while
/// thousands of requests wait (each resume then costs the worker a walk over all of them).
///
/// A handler that waits (for a batch of writes to commit, say) continues here when it is
/// woken: the worker thread, resumed to send the response, runs the continuation that makes
/// it. On `HandlerExecutor`, the continuation first woke one of its threads, which then
/// resumed the connection: one more thread to wake per answer. Enqueues at 32 connections
/// (release build, three alternating pairs): voluntary context switches 0.20 per enqueue
/// against 0.42, server CPU 132–136 µs per enqueue against 139–144.
final class RequestExecutor: TaskExecutor {
    private let promise: ResponsePromise

    init(_ promise: ResponsePromise) {
        self.promise = promise
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // Strongly: the task refers to its executor without retaining it.
        promise.execute { [self] in
            withExtendedLifetime(self) { job.runSynchronously(on: executor) }
        }
    }
}
