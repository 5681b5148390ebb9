import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// `.ownThread` (TestExecutors) moves a test off Swift's shared pool, before and after it waits;
// without it, a test runs on the pool.

@Suite("Tests on a thread of their own", .ownThread)
struct OwnThreadTests {
    @Test("a test of an .ownThread suite runs on its own queue, before and after it waits")
    func ownQueue() async throws {
        #expect(OwnThread.isCurrent)
        try await Task.sleep(for: .milliseconds(1))
        #expect(OwnThread.isCurrent)
    }

    @Test("so does a synchronous test, which may block its thread as long as it likes")
    func ownQueueSynchronous() {
        #expect(OwnThread.isCurrent)
    }
}

@Suite("Tests on the shared pool")
struct SharedPoolTests {
    @Test("a test without .ownThread runs on Swift's shared pool")
    func sharedPool() async throws {
        try await Task.sleep(for: .milliseconds(1))
        #expect(!OwnThread.isCurrent)
    }
}
