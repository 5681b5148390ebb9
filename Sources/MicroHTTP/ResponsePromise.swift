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
    /// Told once if the request ends without its response sent (see `ResponsePromise.onClientGone`).
    var gone: (@Sendable () -> Void)?
}

/// A request answered later, from any thread: MicroHTTP's one abstraction for a handler that
/// must wait (a long-poll, a write on another thread). No thread and no task is held while it
/// waits.
///
/// - **Suspend**: a promise not fulfilled by the time `HTTPReply.later`'s closure returns
///   suspends its connection; one fulfilled before (a handler that never had to wait) is
///   answered at once, without suspending.
/// - **Resume, exactly once**: `fulfill` resumes the connection and sends the response; later
///   fulfilments are ignored (it returns false).
/// - **Client gone**: `onClientGone` is told if the request ends without its response reaching
///   the client. libmicrohttpd does not watch a suspended connection, so a client that left is
///   noticed once the connection is resumed (by its answer, or at shutdown).
/// - **Shutdown**: `HTTPServer.stop` fulfils every promise still waiting (503 by default).
///
/// ```swift
/// struct Waiting: HTTPHandler {
///     let registry: Registry   // small records of waiting requests, woken by events or a timer
///     func handle(_ request: HTTPRequest) -> HTTPReply {
///         .later { promise in
///             let id = registry.add { event in
///                 promise.fulfill(HTTPResponse(status: 200, contentType: "text/plain", text: event))
///             }
///             promise.onClientGone { registry.remove(id) }
///         }
///     }
///     func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
///         HTTPResponse(status: failure.status, contentType: "text/plain", text: failure.detail)
///     }
/// }
/// ```
public final class ResponsePromise: Sendable {
    /// The suspended connection and its server; nil for a detached promise. The server is held
    /// weakly: a handler's task may run its last continuation (`execute`) after the server
    /// stopped and was freed.
    nonisolated(unsafe) private let connection: OpaquePointer?
    private weak let core: ServerCore?
    /// Where a detached promise delivers its response.
    private let deliver: (@Sendable (HTTPResponse) -> Void)?
    /// What the promise delivered, and whether the connection waits for it.
    let state = Locked(PromiseState())

    init(connection: OpaquePointer, core: ServerCore) {
        self.connection = connection
        self.core = core
        self.deliver = nil
    }

    /// A promise with no connection behind it, which hands its response to `deliver`: for
    /// answering a handler's `.later` in-process (tests, tools) exactly as a server would.
    public init(detached deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.connection = nil
        self.core = nil
        self.deliver = deliver
    }

    /// Calls `gone` once if the request ends without its response reaching the client (the
    /// client went away, or the connection broke while it was sent). Set it while the request
    /// is under way; a detached promise never calls it.
    public func onClientGone(_ gone: @escaping @Sendable () -> Void) {
        state.withLock { state in
            if !state.over { state.gone = gone }
        }
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
        guard let core, let connection else {
            deliver?(response)
            return true
        }
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
        guard let core, let connection else { return Self.runElsewhere(work) }
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
            if let connection { MHD_suspend_connection(connection) }
            state.suspended = true
            return .wait
        }
    }

    /// The request is over (`sent`: its response went out whole; else its client is gone):
    /// work that was waiting for the worker runs on a Dispatch thread, as any that comes later,
    /// and `onClientGone` is told when the response was not sent.
    func end(sent: Bool) {
        let (stranded, gone) = state.withLock { state -> ([@Sendable () -> Void], (@Sendable () -> Void)?) in
            state.over = true
            var work: [@Sendable () -> Void] = []
            swap(&work, &state.work)
            defer { state.gone = nil }
            return (work, sent ? nil : state.gone)
        }
        for work in stranded { Self.runElsewhere(work) }
        gone?()
    }

    /// Work the worker thread will not run: on Dispatch's global queue.
    private static func runElsewhere(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async(execute: work)
    }
}
