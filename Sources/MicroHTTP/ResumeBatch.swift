import CMicroHTTPD
import Locking

/// Resumes asked for inside `ResumeBatch.collect` wait for its end, then go together.
///
/// libmicrohttpd (0.9.75) walks a worker's whole list of suspended connections, under the lock
/// that resuming takes, each time it finds one resumed: answering 256 long-polls one by one,
/// with thousands waiting, cost a walk each, and each resume waited for the walk before it.
/// Resumed together, they cost a worker one walk or two.
///
/// A resume asked for after the batch ended (by work the body started elsewhere) goes at once.
public final class ResumeBatch: Sendable {
    @TaskLocal static var current: ResumeBatch?

    /// A suspended connection and the server it belongs to.
    private struct Resume: @unchecked Sendable {
        let connection: OpaquePointer
        let core: ServerCore
    }

    private let pending = Locked<(ended: Bool, resumes: [Resume])>((false, []))

    private init() {}

    /// Runs `body`; the connections its answers resume are resumed when it returns.
    public static func collect<R>(_ body: () throws -> R) rethrows -> R {
        let batch = ResumeBatch()
        defer { batch.end() }
        return try $current.withValue(batch, operation: body)
    }

    /// Keeps the resume for the batch's end; false once it ended (resume at once).
    func add(_ connection: OpaquePointer, of core: ServerCore) -> Bool {
        pending.withLock { pending in
            guard !pending.ended else { return false }
            pending.resumes.append(Resume(connection: connection, core: core))
            return true
        }
    }

    private func end() {
        let resumes = pending.withLock { pending in
            pending.ended = true
            defer { pending.resumes = [] }
            return pending.resumes
        }
        for resume in resumes { resume.core.resumeNow(resume.connection) }
    }
}
