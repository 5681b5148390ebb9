import Foundation

/// The problems a spec decoder stepped over: a value unreadable at its own key (an unknown
/// choice such as `"style": "sheet"`, a wrong type) is recorded here and its default stands in,
/// so that one unknown value does not hide the spec's other problems. A decode collects them
/// while `current` holds a collector (`SpecReader` sets one); others throw as usual.
final class DecodingIssues: @unchecked Sendable {
    @TaskLocal static var current: DecodingIssues?

    private let lock = NSLock()
    private var recorded: [SpecIssue] = []

    var issues: [SpecIssue] { lock.withLock { recorded } }

    func record(_ error: DecodingError) {
        let issue = SpecReader.issue(for: error)
        lock.withLock { recorded.append(issue) }
    }

    /// The collector of this decode, when `error` is about the value at `path` itself (not one
    /// inside it: a nested object that cannot be read stops the decode).
    static func collecting(_ error: DecodingError, at path: [any CodingKey]) -> DecodingIssues? {
        guard let current else { return nil }
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let c), .typeMismatch(_, let c): context = c
        default: return nil
        }
        guard JSONPointer.to(context.codingPath) == JSONPointer.to(path) else { return nil }
        return current
    }
}
