import Dispatch
import Testing

/// Runs a task's jobs on a serial dispatch queue of its own, outside Swift's shared pool.
///
/// The pool has one thread per core, two here, and the live tests that wait for child
/// processes and sockets block them: a job of another test that is ready to run then waits
/// behind them, in one CI run for 87 s. A test that measures time across an `await` (a
/// deadline, a sleep, a wait for a wake-up) runs on one of these instead, so that what it
/// measures is the code under test and not the pool's backlog.
///
/// ```swift
/// let task = Task(executorPreference: OwnThread()) { try await batcher.enqueue(…) }
///
/// @Suite("LongPolls", .ownThread) struct LongPollsTests { … }   // every test of the suite
/// ```
public final class OwnThread: TaskExecutor {
    private let queue = DispatchQueue(label: "alertd.tests.own-thread")
    private static let marker = DispatchSpecificKey<Bool>()

    public init() {
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the calling code runs on an `OwnThread`.
    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// `.ownThread`: each test (each case of a parameterized one) runs on an `OwnThread` of its
/// own; on a suite, every test in it.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// A scope for each test case, none for the suite itself.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(OwnThread()) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs the test, or every test of the suite, on a thread of its own (`OwnThread`).
    public static var ownThread: Self { Self() }
}
