import CMicroHTTPD
import Dispatch
import Locking
import Synchronization

/// A promise's side of a request, shared by the worker thread and whoever fulfils it.
struct PromiseState {
    /// The response delivered and not yet sent.
    var response: HTTPResponse?
    /// Fulfilled once; later fulfilments are ignored.
    var fulfilled = false
    /// The connection is suspended and nothing asked to resume it yet: whoever brings it the
    /// response or work resumes it.
    var suspended = false
    /// Work for the worker thread (see `ResponsePromise.execute`), in the order it came.
    var work: [@Sendable () -> Void] = []
    /// The request is over (its response queued, or its connection gone): work runs elsewhere.
    var over = false
    /// The connection was resumed ahead of its answer (`resumeAhead`) and the worker has not
    /// called the handler since.
    var resumedAhead = false
    /// A resume ahead found nothing by the worker's call: none again for this request.
    var aheadSpent = false
}

/// The way to answer a request later, from any thread.
///
/// A promise fulfilled while the handler's `start` closure is still running (an async handler
/// that never had to wait) is answered at once, without suspending the connection. Otherwise
/// the connection is suspended and fulfilling resumes it; MHD then calls the handler once more
/// and the response is sent there. Only the first fulfilment counts.
public final class ResponsePromise: Sendable {
    nonisolated(unsafe) private let connection: OpaquePointer
    private unowned let core: ServerCore
    /// What the promise delivered, and whether the connection waits for it.
    let state = Locked(PromiseState())

    init(connection: OpaquePointer, core: ServerCore) {
        self.connection = connection
        self.core = core
    }

    /// Sends `response`. Returns false when the request had already been answered.
    @discardableResult
    public func fulfill(_ response: HTTPResponse) -> Bool {
        // nil: already fulfilled; true: the connection waits suspended and must be resumed.
        let mustResume = state.withLock { state -> Bool? in
            guard !state.fulfilled else { return nil }
            state.fulfilled = true
            state.response = response
            defer { state.suspended = false }
            return state.suspended
        }
        guard let mustResume else { return false }
        core.forget(self)
        if mustResume { core.resume(connection) }
        return true
    }

    /// Resumes the suspended connection now, ahead of its answer, when the server is crowded:
    /// the worker's walk over all its suspended connections, which resuming one costs it
    /// (0.9.75: about 0.5 ms with 5,000), then runs while the answer is being made instead of
    /// after. If the worker calls the handler before the answer came, the connection is
    /// suspended again and the answer resumes it, as it would have without this call: the
    /// request waits no longer, the worker walked once in vain. After that the request is not
    /// resumed ahead again, so a request told "soon" by changes that never bring its answer (a
    /// poll whose lane is busy) costs at most one walk more.
    ///
    /// Not on an uncrowded server, where the walk is short: the worker would mostly call the
    /// handler before the answer came and then suspend the connection again, for nothing.
    public func resumeAhead() {
        guard core.isCrowded else { return }
        let mustResume = state.withLock { state -> Bool in
            guard state.suspended, !state.aheadSpent, !state.over, !state.fulfilled else { return false }
            state.suspended = false
            state.resumedAhead = true
            return true
        }
        if mustResume {
            core.resumesAhead.add(1, ordering: .relaxed)
            core.resume(connection)
        }
    }

    /// Runs `work` on the worker thread that serves this request: in the handler call under way
    /// (while `start` runs), or in the one that resuming the suspended connection brings. Once
    /// the request is over (answered, or its client gone), or when it would have to resume the
    /// connection while the server is crowded (`ServerCore.isCrowded`), `work` runs on a
    /// Dispatch thread.
    ///
    /// An async handler's task runs its continuations here (see the server's executor for
    /// them): the worker thread that sends the response runs the code that makes it, and no
    /// other thread has to be woken in between. Not when thousands of long-polls wait: then
    /// resuming costs a worker a walk over all of them, and ten thousand polls arriving at once
    /// keep both workers busy; a poll that waited for the store before it parks held its task
    /// until its worker got to it, and a waiting poll cost 8.5–10.5 KiB instead of 6.7–7.0
    /// (scripts/bench/longpolls.py).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        // nil: run elsewhere; true: the connection waits suspended and must be resumed.
        let crowded = core.isCrowded
        let mustResume = state.withLock { state -> Bool? in
            guard !state.over, !(state.suspended && crowded) else { return nil }
            state.work.append(work)
            defer { state.suspended = false }
            return state.suspended
        }
        switch mustResume {
        case nil: Self.runElsewhere(work)
        case true?: core.resume(connection)
        case false?: break
        }
    }

    /// What the worker does next for this request, on the handler call under way.
    enum Step {
        /// Run this work, then ask again.
        case run([@Sendable () -> Void])
        /// Send this response: the request is over.
        case answer(HTTPResponse)
        /// The connection was suspended: wait for a fulfilment or work to resume it.
        case wait
    }

    /// On the worker thread, in a handler call: the work that came, else the response, else
    /// the connection suspended — decided under the lock, so that nothing brought from another
    /// thread meanwhile is missed (it either lands before, or finds the connection suspended and
    /// resumes it).
    func nextStep() -> Step {
        state.withLock { state in
            if !state.work.isEmpty {
                var work: [@Sendable () -> Void] = []
                swap(&work, &state.work)
                return .run(work)
            }
            if let response = state.response.take() {
                state.over = true
                return .answer(response)
            }
            if state.resumedAhead {
                state.resumedAhead = false
                state.aheadSpent = true
                core.resumesAheadInVain.add(1, ordering: .relaxed)
            }
            MHD_suspend_connection(connection)
            state.suspended = true
            return .wait
        }
    }

    /// The request ended without its answer (the client went away, the server stopped): work
    /// that was waiting for the worker runs on a Dispatch thread, as any that comes later.
    func end() {
        let stranded = state.withLock { state -> [@Sendable () -> Void] in
            state.over = true
            var work: [@Sendable () -> Void] = []
            swap(&work, &state.work)
            return work
        }
        for work in stranded { Self.runElsewhere(work) }
    }

    /// Work the worker thread will not run: on Dispatch's global queue.
    private static func runElsewhere(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async(execute: work)
    }
}
