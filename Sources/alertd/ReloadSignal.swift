import Dispatch
import Foundation

/// SIGHUP, caught from creation on: each one runs the action given to `onSignal` (reloading
/// the catalogs). One that comes before an action is set is ignored, never the default
/// (which ends the process).
final class ReloadSignal: @unchecked Sendable {
    /// Runs the signals' handler and guards `action`: one reload at a time, in arrival order.
    private let queue = DispatchQueue(label: "alertd.sighup")
    private var action: (@Sendable () -> Void)?
    private var source: (any DispatchSourceSignal)?

    init() {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        source.setEventHandler { [weak self] in self?.action?() }
        source.resume()
        self.source = source
    }

    /// What each SIGHUP from now on runs.
    func onSignal(_ run: @escaping @Sendable () -> Void) {
        queue.sync { action = run }
    }

    func cancel() {
        queue.sync { source?.cancel() }
    }
}
