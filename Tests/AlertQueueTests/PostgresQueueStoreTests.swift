import AlertSpec
import Foundation
import PostgresNIO
import Testing

@testable import AlertQueue
@testable import AlertQueuePostgres

/// What is particular to the PostgreSQL store beyond the shared contract: several instances on
/// one database, racing. (The contract's racing enqueues across two instances run on it too.)
@Suite("PostgreSQL queue store")
struct PostgresQueueStoreTests {
    @Test("Four stores migrating a fresh database at once all succeed, and each migration is applied once")
    func concurrentMigrations() async throws {
        // Given
        let database = try await PostgresTestDatabase.make(schema: false)
        defer { database.remove() }
        let stores = try (0..<4).map { _ in try database.open() }
        // When
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask { try await store.migrate() }
            }
            try await group.waitForAll()
        }
        // Then
        let applied = try await stores[0].pool.query("SELECT name FROM alertd.migrations ORDER BY applied_at, name")
            .map { try $0.decode(String.self) }
        #expect(applied.sorted() == PostgresQueueStore.migrations.map(\.name).sorted())
        for store in stores {
            #expect(try await store.enqueue(alert("app/a\(UUID().uuidString)"), now: t0).created)
        }
    }

    @Test("A database a newer alertd migrated: not ready, 503 for every call, the cause told; ready again once it is not")
    func newerSchema() async throws {
        // Given: a database migrated by this version, then by a newer one
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let first = try database.open()
        try await first.migrate()
        try await first.pool.query("INSERT INTO alertd.migrations (name) VALUES ('fromANewerVersion')")
        // When: an instance of this version starts on it
        let store = try database.open()
        // Then: it is not ready, answers unavailable (503), not an error of its own, and says why
        #expect(await store.isReachable() == false)
        let error = await #expect(throws: QueueError.self) { try await store.enqueue(alert("app/a"), now: t0) }
        #expect(error?.kind == .unavailable)
        let problem = await store.connectionProblem()
        #expect(problem?.contains("migrated by a newer alertd") == true)
        #expect(problem?.contains("fromANewerVersion") == true)
        let refusal = await #expect(throws: PostgresStoreError.self) { try await store.migrate() }
        #expect(refusal?.isNewerSchema == true)
        await #expect(throws: QueueError.self) { try await store.changedSessions(since: nil) }
        // And once the database is one it knows again (the newer version rolled back), it serves
        try await first.pool.query("DELETE FROM alertd.migrations WHERE name = 'fromANewerVersion'")
        #expect(await store.isReachable())
        #expect(try await store.enqueue(alert("app/a"), now: t0).created)
        #expect(await store.connectionProblem() == nil)
    }

    @Test("An item's content kept at its insert is what another instance reads from the jsonb")
    func keptContentIsWhatTheDatabaseHolds() async throws {
        // Given: contents that read back as themselves, so the inserting store keeps them
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let (writer, reader) = (try database.open(), try database.open())
        let parameters: [[String: ParameterValue]] = [
            ["count": .integer(3), "sender": .string("Ann")],
            ["min": .integer(.min), "max": .integer(.max), "yes": .boolean(true), "no": .boolean(false)],
            ["s": .string("\"\\/\u{1}\u{1F}\n\t é e\u{301} 🇫🇷 \u{2028}"), "empty": .string(""), "naïve": .string("ü")],
        ]
        for (index, given) in parameters.enumerated() {
            #expect(ContentCache.readsBackAsItself(.alert(id: "app/c\(index)", parameters: given)))
            _ = try await writer.enqueue(alert("app/c\(index)", parameters: given), now: t0)
        }
        // When: the other instance, whose cache is empty, parses PostgreSQL's text of them
        let kept = try await writer.items(session: session, now: t0)
        let read = try await reader.items(session: session, now: t0)
        // Then
        #expect(read.map(\.content) == kept.map(\.content))
        let given = parameters.enumerated().map { QueueContent.alert(id: "app/c\($0)", parameters: $1) }
        #expect(read.count == given.count && given.allSatisfy(read.map(\.content).contains))
    }

    @Test("An item's row reads the same from the bytes of the store's column types as through postgres-nio's decoding")
    func itemRowCells() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        // The store's types (read from their bytes), then others (varchar, smallint, real: read
        // through postgres-nio).
        var rows: [PostgresRow] = []
        for (text, integer, bigInteger, real) in [("text", "integer", "bigint", "float8"), ("varchar", "smallint", "integer", "real")] {
            rows.append(try await store.pool.query(PostgresQuery(unsafeSQL: """
                SELECT 'tk'::\(text), 's'::\(text), '{"alert":"app/x","params":{"n":-7}}'::\(text), 7::\(integer), 'toast'::\(text),
                'k'::\(text), 'presenting'::\(text), 900000::\(bigInteger), 1.5::\(real), NULL::\(real), 2::\(integer), -3.25::\(real), true
                """))[0])
        }
        #expect(rows[0].first?.dataType == .text && rows[1].first?.dataType == .varchar)
        for row in rows {
            let item = try ItemRow.item(from: row, contents: ContentCache())
            #expect(item.ticket == "tk" && item.session == "s" && item.dedupeKey == "k")
            #expect(item.content == .alert(id: "app/x", parameters: ["n": .integer(-7)]))
            #expect(item.priority == 7 && item.lane == .toast && item.state == .presenting && item.sequence == 900_000)
            #expect(item.enqueuedAt == Date(timeIntervalSince1970: 1.5) && item.expiresAt == nil)
            #expect(item.deliveries == 2 && item.leaseUntil == Date(timeIntervalSince1970: -3.25) && item.atHead)
        }
    }

    @Test("Twenty racing next calls through two stores hand out exactly one modal")
    func racingNextAcrossInstances() async throws {
        // Given: five modals queued, and two instances
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let stores = [try database.open(), try database.open()]
        for index in 0..<5 {
            _ = try await stores[0].enqueue(alert("app/m\(index)", priority: 500 + index), now: t0)
        }
        // When
        let delivered = try await withThrowingTaskGroup(of: QueueItem?.self) { group in
            for index in 0..<20 {
                let store = stores[index % 2]
                group.addTask { try await store.next(session: session, now: t0) }
            }
            return try await group.reduce(into: [QueueItem]()) { delivered, item in
                if let item { delivered.append(item) }
            }
        }
        // Then
        #expect(delivered.count == 1)
        #expect(delivered.first?.lane == .modal)
        let listing = try await stores[1].items(session: session, now: t0)
        #expect(listing.filter { $0.state == .presenting }.map(\.ticket) == delivered.map(\.ticket))
        #expect(listing.count == 5)
    }

    @Test("Racing next calls through two stores hand out one modal, one toast and every HUD")
    func racingNextAcrossLanes() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let stores = [try database.open(), try database.open()]
        for index in 0..<3 {
            _ = try await stores[0].enqueue(alert("app/m\(index)"), now: t0)
            _ = try await stores[0].enqueue(toast("app/t\(index)"), now: t0)
        }
        _ = try await stores[1].enqueue(hud("app/h"), now: t0)
        // When
        let delivered = try await withThrowingTaskGroup(of: QueueItem?.self) { group in
            for index in 0..<20 {
                let store = stores[index % 2]
                group.addTask { try await store.next(session: session, now: t0) }
            }
            return try await group.reduce(into: [QueueItem]()) { delivered, item in
                if let item { delivered.append(item) }
            }
        }
        // Then
        #expect(delivered.map(\.lane).sorted { $0.rawValue < $1.rawValue } == [.hud, .modal, .toast])
    }

    @Test("Racing enqueues of different alerts through two stores never pass the queue limit")
    func racingEnqueuesRespectTheLimit() async throws {
        // Given: a limit of three, and two instances
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let settings = QueueSettings(maxQueueLength: 3)
        let stores = [try database.open(settings: settings), try database.open(settings: settings)]
        // When ten different alerts are queued at once
        let outcomes = await withTaskGroup(of: Bool?.self) { group in
            for index in 0..<10 {
                let store = stores[index % 2]
                group.addTask {
                    do {
                        return try await store.enqueue(alert("app/a\(index)"), now: t0).created
                    } catch let error as QueueError {
                        return error == .queueFull(limit: 3) ? false : nil
                    } catch {
                        return nil
                    }
                }
            }
            return await group.reduce(into: [Bool?]()) { $0.append($1) }
        }
        // Then three are queued and seven refused as full, nothing else
        #expect(outcomes.filter { $0 == true }.count == 3)
        #expect(outcomes.filter { $0 == false }.count == 7)
        #expect(try await stores[0].items(session: session, now: t0).count == 3)
    }

    @Test("Racing HUD enqueues through two stores leave one queued HUD, the last one committed (changeTo)")
    func racingHUDsLeaveOne() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let stores = [try database.open(), try database.open()]
        // When
        let queued = try await withThrowingTaskGroup(of: QueueItem.self) { group in
            for index in 0..<8 {
                let store = stores[index % 2]
                group.addTask { try await store.enqueue(hud("app/progress\(index)"), now: t0).item }
            }
            return try await group.reduce(into: [QueueItem]()) { $0.append($1) }
        }
        // Then: the others were cancelled by the one after them
        let listing = try await stores[1].items(session: session, now: t0)
        #expect(listing.map(\.ticket) == [queued.max { $0.sequence < $1.sequence }?.ticket])
    }

    @Test("When an enqueue misses a live duplicate, the unique index catches it and the live item is returned")
    func uniqueIndexCatchesDuplicate() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let first = try await store.enqueue(alert("app/a", key: "k"), now: t0)
        // When: an enqueue that does not see the live items, as a racing writer would not
        let blind = try await store.enqueueUnseen(alert("app/b", key: "k"), now: at(1))
        // Then
        #expect(!blind.created)
        #expect(blind.item == first.item)
        #expect(try await store.items(session: session, now: at(1)).map(\.ticket) == [first.item.ticket])
    }

    @Test("When a batch of enqueues misses a live duplicate, it is rolled back and each enqueue runs alone")
    func batchMeetsUniqueIndex() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let first = try await store.enqueue(alert("app/a", key: "k"), now: t0)
        // When: a batch that does not see the live items, as a racing writer would not
        let results = try await store.enqueueBatchUnseen(
            [alert("app/b", key: "k"), alert("app/c"), alert("app/d", in: "s2")], now: at(1))
        // Then: the duplicate is answered with the live item, the others are queued once
        #expect(!results[0].created)
        #expect(results[0].item == first.item)
        #expect(results[1].created && results[2].created)
        #expect(try await store.items(session: session, now: at(1)).map(\.alertID) == ["app/a", "app/c"])
        #expect(try await store.items(session: "s2", now: at(1)).map(\.alertID) == ["app/d"])
        // and the store goes on working on the same connections
        #expect(try await store.enqueue(alert("app/e"), now: at(2)).created)
    }

    @Test("The database refuses a second presenting modal in a session, whoever writes it")
    func presentingIndexIsADatabaseConstraint() async throws {
        // Given: one modal presenting and one queued
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        _ = try await store.enqueue(alert("app/a"), now: t0)
        let queued = try await store.enqueue(alert("app/b"), now: t0).item
        _ = try await store.next(session: session, now: t0)
        // When: a writer that skips the policy marks the queued one presenting
        let error = await #expect(throws: PSQLError.self) {
            try await store.pool.query(
                """
                UPDATE alertd.items SET state = 'presenting', lease_until = 1 WHERE ticket = \(queued.ticket)
                """)
        }
        // Then
        #expect(error?.serverInfo?[.sqlState] == "23505")
        #expect(error?.serverInfo?[.constraintName] == "items_one_presenting")
    }

    @Test("Several HUDs may present at once as far as the database goes (the lane is exempt)")
    func hudsAreExemptFromThePresentingIndex() async throws {
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        // (The queue never presents a HUD, which is done once delivered: the rows are set by hand.)
        _ = try await store.enqueue(hud("app/h1"), now: t0)
        _ = try await store.next(session: session, now: t0)
        _ = try await store.enqueue(hud("app/h2"), now: t0)
        try await store.pool.query("UPDATE alertd.items SET state = 'presenting', lease_until = 2e9 WHERE lane = 'hud'")
        #expect(try await store.items(session: session, now: t0).filter { $0.state == .presenting }.count == 2)
    }
}
