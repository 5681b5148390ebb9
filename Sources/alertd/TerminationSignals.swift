import Dispatch
import Foundation

/// SIGINT and SIGTERM, caught from creation on and delivered to `wait()`.
final class TerminationSignals {
    private let received = DispatchSemaphore(value: 0)
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in received.signal() }
            source.resume()
            sources.append(source)
        }
    }

    /// Blocks until one of the signals arrives.
    func wait() {
        received.wait()
        sources.forEach { $0.cancel() }
    }
}
