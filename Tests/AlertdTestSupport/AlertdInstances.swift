#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcesses
import Dispatch
import Foundation
import Locking
import Testing
@testable import HTTPTestSupport

extension AlertdProcess {
    /// `alertd serve` on a free port of 127.0.0.1 with `arguments`, and its port once it says it listens.
    static func serving(_ arguments: [String]) throws -> (AlertdProcess, Int) {
        let run = try launch(["serve", "--host", "127.0.0.1", "--port", "0"] + arguments)
        let line = try #require(
            run.readStandardOutputLine(within: .seconds(10)), "no first line; stderr: \(run.standardErrorSoFar())")
        let prefix = "alertd listening on http://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
            run.kill()
            throw RawHTTPError.malformed("first line: \(line); stderr: \(run.standardErrorSoFar())")
        }
        return (run, port)
    }

    /// Sends SIGTERM and waits (at most `limit`) for the exit; whether it exited with status 0.
    func terminate(within limit: Duration = .seconds(15)) -> Bool {
        guard process.isRunning else { return process.terminationStatus == 0 }
        _ = signalProcess(process.processIdentifier, SIGTERM)
        guard waitForExit(within: limit) else {
            kill()
            return false
        }
        return process.terminationStatus == 0
    }
}

/// Several `alertd serve` processes on one PostgreSQL database, as behind a load balancer: the
/// same store URL, admin token and session secret, each with its own port and data folder.
///
/// ```swift
/// let instances = try AlertdInstances(store: url, count: 2)
/// let app = try SessionClient.open(port: instances.ports[0], session: "s", adminToken: instances.adminToken)
/// try instances.restart()   // every instance stopped, then started again on the same database
/// ```
final class AlertdInstances {
    let store: String
    let adminToken = "admin-\(UUID().uuidString)"
    let sessionSecret = "secret-\(UUID().uuidString)"
    let extraArguments: [String]
    private(set) var processes: [AlertdProcess] = []
    private(set) var ports: [Int] = []

    init(store: String, count: Int = 2, arguments: [String] = []) throws {
        self.store = store
        self.extraArguments = arguments
        do {
            try start(count)
        } catch {
            stop()
            throw error
        }
    }

    private var arguments: [String] {
        ["--store", store, "--admin-token", adminToken, "--session-secret", sessionSecret] + extraArguments
    }

    /// Starts `count` instances, each ready (`/readyz` 200: its first store call migrates the
    /// database, which a loaded run can make slower than a request may wait).
    private func start(_ count: Int) throws {
        for _ in 0..<count {
            let (process, port) = try AlertdProcess.serving(arguments)
            processes.append(process)
            ports.append(port)
            let ready = eventually(within: .seconds(60)) {
                (try? RawHTTPClient(port: port, timeout: .seconds(10)).request("GET", "/readyz").status) == 200
            }
            try #require(ready, "alertd on port \(port) never became ready")
        }
    }

    /// Stops every instance (SIGTERM); whether each exited cleanly.
    @discardableResult
    func stop() -> Bool {
        for process in processes {
            let errors = process.standardErrorSoFar()
            if errors.contains("Sanitizer") || errors.contains("Fatal error") { print("alertd instance stderr:\n\(errors)") }
        }
        let clean = processes.map { $0.terminate() }.allSatisfy { $0 }
        processes = []
        ports = []
        return clean
    }

    /// Stops every instance, then starts as many again on the same database; whether the
    /// stopped ones exited cleanly.
    @discardableResult
    func restart() throws -> Bool {
        let count = processes.count
        let clean = stop()
        try start(count)
        return clean
    }

    /// Kills instance `index` (SIGKILL: no shutdown, as a crash of the machine would); the others run on.
    func kill(_ index: Int) { processes[index].kill() }

    /// What instance `index` wrote to standard error so far (for failure messages).
    func standardError(_ index: Int) -> String { processes[index].standardErrorSoFar() }

    deinit { for process in processes { process.kill() } }
}

/// Runs `body(0)`, …, `body(count - 1)` at the same moment, each on a thread of its own after
/// `prepare(index)` (a connection, say) was done on every thread; the outcomes by index.
func race<Prepared, Outcome: Sendable>(
    _ count: Int, prepare: @escaping @Sendable (Int) throws -> Prepared,
    _ body: @escaping @Sendable (Int, Prepared) throws -> Outcome
) -> [Result<Outcome, any Error>] {
    let outcomes = Locked<[Int: Result<Outcome, any Error>]>([:])
    let ready = DispatchGroup()
    let finished = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        finished.enter()
        Thread.detachNewThread {
            defer { finished.leave() }
            let prepared: Prepared
            do {
                prepared = try prepare(index)
            } catch {
                ready.leave()
                outcomes.withLock { $0[index] = .failure(error) }
                return
            }
            ready.leave()
            start.wait()
            let outcome = Result { try body(index, prepared) }
            outcomes.withLock { $0[index] = outcome }
        }
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    finished.wait()
    return outcomes.withLock { outcomes in (0..<count).map { outcomes[$0] ?? .failure(RawHTTPError.closed("no outcome")) } }
}
