import Foundation

/// Whether `condition` holds within `limit`, looking every 10 ms.
func eventually(within limit: Duration = .seconds(3), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}
