import Dispatch

/// Runs a task's jobs on a serial dispatch queue of its own, outside Swift's shared pool, which
/// tests running beside it may keep busy (live tests that wait for processes block its threads).
final class OwnThread: TaskExecutor {
    private let queue = DispatchQueue(label: "alertd.tests.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
