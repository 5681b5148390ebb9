import ChildProcesses
import Dispatch
import Foundation
@testable import HTTPTestSupport

/// A child process run to its end — its exit status and everything it printed, standard output
/// and standard error together — waited for on a thread of its own, never on Swift's
/// cooperative pool.
///
/// The pool has one thread per core, two here. A test that blocks one of them for minutes
/// (schemathesis: nearly three under ThreadSanitizer) leaves the in-process servers and every
/// other test one thread, and a second blocking test none: in a CI run, 85 tests waited 87 s
/// to start, and a test that slept 2 ms found a 60 s deadline passed when it resumed.
struct ChildRun: Sendable {
    var status: Int32
    var output: String

    /// Runs `executable` with `arguments`, standard input empty; terminated if it is still
    /// running after `limit` (whole seconds).
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil,
        limit: Duration = .seconds(600)
    ) async throws -> ChildRun {
        let output = try ChildPipe()
        defer { output.closeReadEnd() }
        let process = try {
            defer { output.closeWriteEnd() }  // once the child has its copy, or failed to start
            return try ChildProcess(
                [executable.path] + arguments, environment: environment, in: folder?.path,
                standardOutput: output.writeEnd, standardError: output.writeEnd)
        }()
        let watchdog = DispatchWorkItem { [process] in process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(limit.components.seconds)), execute: watchdog)
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation in
            Thread { [process] in
                let printed = String(decoding: output.readToEnd(), as: UTF8.self)
                process.waitUntilExit()
                continuation.resume(returning: ChildRun(status: process.terminationStatus, output: printed))
            }.start()
        }
    }
}
