import CMicroHTTPD
import Dispatch
import Locking

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
