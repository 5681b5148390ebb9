import AlertQueue
import Foundation
import GRDB
import GRDBSQLite
import Locking

/// The event rows of the batcher's transaction under way, inserted together just before it
/// commits (`TransactionEnd.beforeCommit`) rather than one statement per event inside each step:
/// multi-row INSERTs of up to `chunk` rows, their text bound without SQLite's copies
/// (`SQLITE_STATIC`) from one buffer the rows' text is gathered into as they are staged.
///
/// A write whose savepoint is undone (`TransactionEnd.undo(to:)`) takes its rows out with it; so
/// does a transaction that does not commit. A write that reads the events table inside the
/// transaction (erase, purge) writes the rows staged so far first (`write(in:)`): should that
/// write then be undone, the rows written inside its savepoint were undone with it, and are
/// written again before the commit (`undo(to:)` moves `written` back).
///
/// Should the insert fail at the commit (a full disk), the whole batch fails with it: nothing of
/// it is committed, and every write of it is answered with the error.
final class StagedEvents: Sendable {
    /// One row of `events`; its four texts (session, ticket, type, detail JSON) lie one after the
    /// other in `State.text` from `start`.
    private struct Row {
        var id: Int64
        var at: Double
        var start: Int
        var lengths: (Int32, Int32, Int32, Int32)
    }

    /// Where a write begins: the rows staged, and written, before it.
    struct Mark: Sendable {
        var staged: Int
        var written: Int
    }

    private struct State {
        var rows: [Row] = []
        var text: [UInt8] = []
        /// `rows[..<written]` are in the table already (a write that reads events wrote them).
        var written = 0
    }

    private let state = Locked(State())
    /// The most rows one INSERT writes: a batch's are written by statements of 32, 16, ... 1
    /// rows (one cached statement each).
    static let chunk = 32

    /// Stages `event`, numbered `id`, for the commit of the transaction under way.
    func stage(_ event: ItemEvent, id: Int64) {
        var texts = (event.session, event.ticket, event.kind.rawValue, event.detail.isEmpty ? "{}" : event.detailJSON)
        state.withLock { state in
            let start = state.text.count
            let lengths = (
                Self.append(&texts.0, to: &state.text), Self.append(&texts.1, to: &state.text),
                Self.append(&texts.2, to: &state.text), Self.append(&texts.3, to: &state.text)
            )
            state.rows.append(Row(id: id, at: event.at.timeIntervalSince1970, start: start, lengths: lengths))
        }
    }

    /// Appends `string`'s UTF-8 to `text` in one copy (through `withUTF8`: appending its
    /// `utf8` view went byte by byte for the short strings stored inline); its length.
    private static func append(_ string: inout String, to text: inout [UInt8]) -> Int32 {
        string.withUTF8 { bytes in
            text.append(contentsOf: bytes)
            return Int32(bytes.count)
        }
    }

    func mark() -> Mark { state.withLock { Mark(staged: $0.rows.count, written: $0.written) } }

    /// The write that began at `mark` was undone, with its savepoint: its rows are not staged any
    /// more, and the rows it wrote (of earlier writes) are no longer in the table.
    func undo(to mark: Mark) {
        state.withLock { state in
            if state.rows.count > mark.staged {
                state.text.removeSubrange(state.rows[mark.staged].start...)
                state.rows.removeSubrange(mark.staged...)
            }
            state.written = min(state.written, mark.written)
        }
    }

    /// The transaction ended, committed or not: nothing is staged.
    func reset() {
        state.withLock { state in
            state.rows.removeAll(keepingCapacity: true)
            state.text.removeAll(keepingCapacity: true)
            state.written = 0
        }
    }

    /// Inserts the rows staged and not yet written, in id order, in the transaction under way.
    func write(in db: Database) throws {
        // Only the writer's thread stages, undoes and writes: the rows cannot change meanwhile.
        let (rows, text, from) = state.withLock { ($0.rows, $0.text, $0.written) }
        guard from < rows.count else { return }
        var next = from
        defer { state.withLock { $0.written = next } }
        try text.withUnsafeBufferPointer { text in
            while next < rows.count {
                var count = Self.chunk
                while count > rows.count - next { count /= 2 }
                try Self.insert(rows[next..<(next + count)], text: text, in: db)
                next += count
            }
        }
    }

    /// One INSERT of `rows`, its text bound where it lies in `text`, which outlives the step.
    private static func insert(_ rows: ArraySlice<Row>, text: UnsafeBufferPointer<UInt8>, in db: Database) throws {
        let sql = insertSQL[rows.count.trailingZeroBitCount]
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        // No pointer into `text` outlives the step: the bindings are cleared with the reset.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let base = UnsafeRawPointer(text.baseAddress!).assumingMemoryBound(to: CChar.self)
        for (number, row) in rows.enumerated() {
            // Row `number`'s parameters: id, session, ticket, type, at, detail.
            let first = CInt(number * 6 + 1)
            let lengths = row.lengths
            let (session, ticket, type, detail) = (
                base + row.start, base + row.start + Int(lengths.0), base + row.start + Int(lengths.0 + lengths.1),
                base + row.start + Int(lengths.0 + lengths.1 + lengths.2)
            )
            sqlite3_bind_int64(statement, first, row.id)
            sqlite3_bind_text(statement, first + 1, session, lengths.0, nil)
            sqlite3_bind_text(statement, first + 2, ticket, lengths.1, nil)
            sqlite3_bind_text(statement, first + 3, type, lengths.2, nil)
            sqlite3_bind_double(statement, first + 4, row.at)
            sqlite3_bind_text(statement, first + 5, detail, lengths.3, nil)
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    /// The INSERTs of 1, 2, 4, ... `chunk` rows, by the count's power of two.
    private static let insertSQL: [String] = (0...chunk.trailingZeroBitCount).map { power in
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: 1 << power).joined(separator: ", ")
        return "INSERT INTO events (id, session, ticket, type, at, detail) VALUES \(values)"
    }
}
