#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertServer
import AlertSpec
import ChildProcesses
import Dispatch
import Foundation
import Locking
import MicroHTTP
import Testing
@testable import HTTPTestSupport

/// kill(2), under a name the helper's own `kill()` does not shadow.
func signalProcess(_ pid: Int32, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}

/// The built `alertd` executable, run as a child process with bounded waits.
final class AlertdProcess {
    /// The run's data folder (`ALERTD_DATA_DIR`), removed with the run.
    let dataFolder: URL

    struct Finished {
        var exited: Bool
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    let process: ChildProcess
    private let output: ChildPipe
    private let errors: ChildPipe
    /// Standard error as read so far, and whether it has ended: a thread drains the pipe from the
    /// start, so a server logging a line per request never blocks on a full pipe.
    private let collectedErrors = Locked<(bytes: [UInt8], ended: Bool)>(([], false))
    private var pendingOutput: [UInt8] = []

    /// `alertd` next to the test bundle (`swift test` puts both in the build folder), else in
    /// the package's `.build/debug`.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("alertd"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("alertd"))
        var package = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 {
            package = package.deletingLastPathComponent()
            candidates.append(package.appendingPathComponent(".build/debug/alertd"))
        }
        for candidate in candidates {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw RawHTTPError.closed("alertd executable not found; looked in \(candidates.map(\.path))")
    }

    private init(process: ChildProcess, output: ChildPipe, errors: ChildPipe, dataFolder: URL) {
        (self.process, self.output, self.errors, self.dataFolder) = (process, output, errors, dataFolder)
    }

    static func launch(_ arguments: [String], environment extra: [String: String] = [:]) throws -> AlertdProcess {
        let executable = try executable()
        // The flags under test win; no ALERTD_* from the environment may change the outcome.
        // Each run keeps its generated secrets (and any SQLite file) in a folder of its own.
        let dataFolder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-test-data-\(UUID().uuidString)")
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ALERTD_") }
        environment["ALERTD_DATA_DIR"] = dataFolder.path
        environment.merge(extra) { _, given in given }
        let (output, errors) = (try ChildPipe(), try ChildPipe())
        let process = try {
            defer { output.closeWriteEnd(); errors.closeWriteEnd() }  // the child has its copies, or failed
            return try ChildProcess(
                [executable.path] + arguments, environment: environment, in: FileManager.default.temporaryDirectory.path,
                standardOutput: output.writeEnd, standardError: errors.writeEnd)
        }()
        let run = AlertdProcess(process: process, output: output, errors: errors, dataFolder: dataFolder)
        run.drainStandardError()
        return run
    }

    private func drainStandardError() {
        let fd = errors.readEnd
        let collected = UnsafeSendable(self)
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                collected.value.collectedErrors.withLock { $0.bytes += chunk[..<count] }
            }
            collected.value.collectedErrors.withLock { $0.ended = true }
            collected.value.errors.closeReadEnd()
        }
    }

    /// Standard error so far, waiting up to `limit` for the whole of it when the process has
    /// ended.
    private func standardErrorText(waitingForEnd limit: Duration) -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            let (bytes, ended) = collectedErrors.withLock { ($0.bytes, $0.ended) }
            if ended || ContinuousClock.now >= deadline { return String(decoding: bytes, as: UTF8.self) }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Waits up to `limit` for standard error to hold `text`; the whole of it so far.
    @discardableResult
    func waitForStandardError(containing text: String, within limit: Duration) -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            let soFar = standardErrorSoFar()
            if soFar.contains(text) || ContinuousClock.now >= deadline { return soFar }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Runs to completion (at most `limit`), collecting both streams.
    static func run(
        _ arguments: [String], environment extra: [String: String] = [:], limit: Duration = .seconds(10)
    ) throws -> Finished {
        let run = try launch(arguments, environment: extra)
        let exited = run.waitForExit(within: limit)
        if !exited { run.kill() }
        let out = run.output.readToEnd()
        let err = run.standardErrorText(waitingForEnd: .seconds(5))
        return Finished(
            exited: exited, status: exited ? run.process.terminationStatus : -1,
            standardOutput: String(decoding: out, as: UTF8.self), standardError: err)
    }

    /// The next line of standard output, waiting at most `limit`.
    func readStandardOutputLine(within limit: Duration) -> String? {
        let fd = output.readEnd
        let deadline = ContinuousClock.now + limit
        while true {
            if let newline = pendingOutput.firstIndex(of: 0x0A) {
                let line = String(decoding: pendingOutput[..<newline], as: UTF8.self)
                pendingOutput.removeFirst(newline + 1)
                return line
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left.components.seconds * 1000 + 1)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            pendingOutput += chunk[..<count]
        }
    }

    /// Everything written to standard error so far (the log), without blocking.
    func standardErrorSoFar() -> String {
        // Once the process has ended, all it wrote is in the pipe: wait for the drain thread to
        // read to its end, or a line written just before the exit may be missing (seen in CI).
        if !process.isRunning { return standardErrorText(waitingForEnd: .seconds(5)) }
        return String(decoding: collectedErrors.withLock { $0.bytes }, as: UTF8.self)
    }

    func waitForExit(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// Makes sure the child is gone: SIGKILL if it still runs, then reap it.
    func kill() {
        guard process.isRunning else { return }
        _ = signalProcess(process.processIdentifier, SIGKILL)
        _ = waitForExit(within: .seconds(5))
    }

    deinit {
        output.closeReadEnd()
        try? FileManager.default.removeItem(at: dataFolder)
    }
}

/// A reference handed to a thread that outlives no one it should not: the drain thread reads
/// until the pipe ends, which the process's end (or the helper's `kill`) brings.
private struct UnsafeSendable<Value: AnyObject>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
