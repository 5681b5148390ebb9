import Foundation
import Locking

#if canImport(Glibc)
import Glibc
#endif

/// CPU-heavy request work (validating a large spec) on threads of its own instead of the HTTP
/// worker threads, so a render served by the same worker is not stuck behind it: at most
/// `threads` jobs run at once and at most `backlog` more wait, in the order they came. Past that
/// `submit` refuses, and the caller answers 503: anonymous clients cannot pile up unbounded work.
///
/// A thread is started when work comes and none is free, and ends once nothing waits, so an
/// idle service (and every service a test makes) holds no thread. It runs at a lower priority
/// (nice 10 at least) than the HTTP workers: on a busy machine a render still gets a core first.
///
/// ```swift
/// let work = BoundedWork(threads: 1, backlog: 8)
/// if !work.submit({ answer(validate(body)) }) { answer(busy) }
/// ```
final class BoundedWork: Sendable {
    /// Jobs that may run at once.
    let threads: Int
    /// Jobs that may wait beyond those running.
    let backlog: Int

    private struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    init(threads: Int, backlog: Int) {
        precondition(threads >= 1 && backlog >= 0, "BoundedWork needs a thread and a backlog of 0 or more")
        self.threads = threads
        self.backlog = backlog
    }

    /// The bound for validating specs on this machine: half its cores (at least one), so
    /// validates can never take every core from the HTTP workers, and 8 waiting per thread
    /// (at most about 8 validates' time of waiting, and 8 bodies of at most 64 KiB).
    static func forSpecs(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> BoundedWork {
        let threads = max(1, cores / 2)
        return BoundedWork(threads: threads, backlog: 8 * threads)
    }

    /// Runs `job` on one of the threads, now or after the jobs before it; false, without
    /// running it, when `threads` jobs run and `backlog` wait already.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        // nil: refused; true: a thread must be started for it.
        let start = state.withLock { state -> Bool? in
            if state.running < threads {
                state.running += 1
                return true
            }
            guard state.waiting.count < backlog else { return nil }
            state.waiting.append(job)
            return false
        }
        guard let start else { return false }
        if start {
            let thread = Thread { [self] in drain(from: job) }
            thread.name = "alertd-work"
            thread.start()
        }
        return true
    }

    /// Jobs running or waiting now.
    var pending: Int {
        state.withLock { $0.running + $0.waiting.count }
    }

    /// Runs `first`, then whatever waits, until nothing does; then the thread ends.
    private func drain(from first: @escaping @Sendable () -> Void) {
        #if os(Linux)
        // On Linux a nice value is a thread's own: 0 names the calling thread, not the process.
        // The priority is only ever lowered: a process started above nice 10 keeps its value.
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < 10 { setpriority(which, 0, 10) }
        #endif
        var job = first
        while true {
            job()
            let next = state.withLock { state -> (@Sendable () -> Void)? in
                guard !state.waiting.isEmpty else {
                    state.running -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            guard let next else { return }
            job = next
        }
    }
}
