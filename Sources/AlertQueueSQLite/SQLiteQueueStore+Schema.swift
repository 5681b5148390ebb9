import AlertQueue
import GRDB

extension SQLiteQueueStore {
    /// The schema, as named migrations. Append only: a migration that shipped is never edited,
    /// a change is a new migration after the others.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("createItems") { db in
            try db.create(table: "items") { t in
                t.primaryKey("ticket", .text)
                t.column("session", .text).notNull()
                // JSON text; declared TEXT (not JSON, which SQLite would give numeric affinity).
                t.column("content", .jsonText).notNull()
                t.column("priority", .integer).notNull()
                t.column("lane", .text).notNull()
                t.column("dedupe_key", .text).notNull()
                t.column("state", .text).notNull()
                // Enqueue order, increasing across the store; unique, so its maximum is an index lookup.
                t.column("sequence", .integer).notNull().unique()
                // Seconds since 1970.
                t.column("enqueued_at", .double).notNull()
                t.column("expires_at", .double)
                t.column("deliveries", .integer).notNull().defaults(to: 0)
                t.column("lease_until", .double)
                t.column("at_head", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "items_session_state", on: "items", columns: ["session", "state"])
            // A dedupe key is live at most once per session, whatever writers race: the database
            // says so, not a check before the insert.
            try db.execute(
                sql: """
                    CREATE UNIQUE INDEX items_live_dedupe ON items(session, dedupe_key)
                    WHERE state IN ('queued', 'presenting')
                    """)
        }

        migrator.registerMigration("createHolds") { db in
            try db.create(table: "holds") { t in
                t.primaryKey("session", .text)
                t.column("until", .double).notNull()
            }
        }

        // `census(now:)` reads this index alone: the items that are live, expired or dead, never
        // the done and cancelled ones that make up most of the table.
        migrator.registerMigration("indexCensus") { db in
            try db.execute(
                sql: """
                    CREATE INDEX items_census ON items(state, lane, expires_at)
                    WHERE state IN ('queued', 'presenting', 'expired', 'dead')
                    """)
        }

        // A step reads the session's live items through items_live_dedupe (its WHERE is the
        // step's), the listing its dead ones through items_session_dead. items_session_state also
        // held every done and cancelled item, and each insert and each change of state wrote it:
        // one more page at a random place per write. Measured with scripts/bench-queue.sh.
        migrator.registerMigration("readThroughPartialIndexes") { db in
            try db.execute(sql: "DROP INDEX items_session_state")
            try db.execute(sql: "CREATE INDEX items_session_dead ON items(session) WHERE state = 'dead'")
        }

        // items_census named four states in its WHERE. SQLite evaluates an IN list of more than
        // two constants through an ephemeral table, which every INSERT and every UPDATE of an item
        // built anew to test the row against the index's WHERE: two pages zeroed and filled, about
        // 30,000 instructions a write (callgrind; a third of an insert's own work). The two states
        // left out take two comparisons. The census query repeats this WHERE word for word.
        // Side by side with the build before (release, 6 alternating rounds): enqueue → next →
        // ack cycles 1.10–1.52 × per second (median 1.13 ×), enqueues 0.89–1.13 × (1.05 ×).
        migrator.registerMigration("censusWithoutEphemeralTable") { db in
            try db.execute(sql: "DROP INDEX items_census")
            try db.execute(
                sql: """
                    CREATE INDEX items_census ON items(state, lane, expires_at)
                    WHERE state NOT IN ('done', 'cancelled')
                    """)
        }

        // Where readiness tries a write after a failed one: a row inserted and deleted in one
        // transaction, empty between probes.
        migrator.registerMigration("createProbe") { db in
            try db.create(table: "probe") { t in
                t.column("data", .blob).notNull()
            }
        }

        // A step reads a window of its session, not every live item (see `SQLiteQueueStore+Window`):
        // the presenting items, the queued ones whose TTL ended, the best queued item of each
        // lane (chains newest first; the rest by priority, then sequence, as `QueuePolicy.precedes`
        // orders them), each through its own partial index.
        migrator.registerMigration("indexWindows") { db in
            try db.execute(sql: "CREATE INDEX items_presenting ON items(session) WHERE state = 'presenting'")
            try db.execute(
                sql: "CREATE INDEX items_queued_expiry ON items(session, expires_at) WHERE state = 'queued' AND expires_at NOTNULL")
            try db.execute(
                sql: "CREATE INDEX items_queued_chains ON items(session, lane, sequence) WHERE state = 'queued' AND at_head = 1")
            try db.execute(
                sql: """
                    CREATE INDEX items_queued_order ON items(session, lane, priority DESC, sequence)
                    WHERE state = 'queued' AND at_head = 0
                    """)
        }

        // The live items of each session, counted by what orders them: the queue limit and the
        // position of a new item add these up instead of reading the session. Triggers keep the
        // counts in the transaction that changes an item, whichever statement changes it.
        migrator.registerMigration("countLiveItems") { db in
            try db.execute(sql: LiveCounts.schema)
        }

        // A duplicate enqueue may refresh a queued item in place, changing its lane or priority.
        migrator.registerMigration("countRefreshedItems") { db in
            try db.execute(sql: LiveCounts.moveSchema)
        }

        // What the user typed in an alert's input field, kept with the item its ack made done.
        migrator.registerMigration("keepAckInput") { db in
            try db.alter(table: "items") { t in t.add(column: "input", .text) }
        }

        // Each item's timeline, one row per event, in the transaction of the change; and the
        // finished items of a session, newest first, for its history.
        migrator.registerMigration("createEvents") { db in
            try db.execute(sql: EventRecord.schema)
            try db.execute(sql: EventRecord.historyIndex)
        }

        // Daily outcome counters, rolled up from the event feed; they outlive item retention.
        migrator.registerMigration("createOutcomes") { db in
            try db.execute(sql: OutcomeRecord.schema)
        }

        // Event ids given by the store, not by AUTOINCREMENT (see `EventRecord`): one page less
        // in every commit that writes an event.
        migrator.registerMigration("eventIDsWithoutAutoincrement") { db in
            try db.execute(sql: EventRecord.explicitIDs)
        }

        // The census reads the queued and presenting items only: expired and dead ones were
        // history, kept until the retention purges them, and made each scrape slower as they
        // grew. Two states in the WHERE, so no ephemeral table (see `censusWithoutEphemeralTable`).
        migrator.registerMigration("censusOfLiveItems") { db in
            try db.execute(sql: "DROP INDEX items_census")
            try db.execute(
                sql: """
                    CREATE INDEX items_census_live ON items(state, lane, expires_at)
                    WHERE state IN ('queued', 'presenting')
                    """)
        }

        // Each item lists its events' ids: no index of the events by item (see `EventRecord`).
        migrator.registerMigration("eventIDsInItems") { db in
            try db.execute(sql: EventRecord.idsInItems)
        }

        // Scheduled delivery: a queued item is not deliverable before `not_before` (seconds since
        // 1970; NULL for most). The partial index holds only scheduled items, so an enqueue of
        // an unscheduled one writes no entry of it; a waiting poll reads it for its wake-up.
        migrator.registerMigration("scheduleItems") { db in
            try db.alter(table: "items") { t in t.add(column: "not_before", .double) }
            try db.execute(
                sql: "CREATE INDEX items_queued_scheduled ON items(session, not_before) WHERE state = 'queued' AND not_before NOTNULL")
        }

        // Groups of copies (a user's devices reached once) and the withdraws owed to devices
        // whose presenting copy was taken back (see `WithdrawalRecord`). The partial index holds
        // live copies of groups only, so an item of no group writes no entry of it.
        migrator.registerMigration("groupsAndWithdrawals") { db in
            try db.execute(sql: WithdrawalRecord.schema)
        }

        // The session registry (`SessionDirectory`): a session's user, topics and last-seen time.
        migrator.registerMigration("createSessionDirectory") { db in
            try db.execute(sql: KnownSessionRecord.schema)
        }

        // Campaigns: their rows, their explicit audiences, and each copy's campaign (see
        // `CampaignRecord`).
        migrator.registerMigration("campaigns") { db in
            try db.execute(sql: CampaignRecord.schema)
        }

        // A campaign's counts kept as its copies change, so its progress reads a few rows.
        migrator.registerMigration("campaignTallies") { db in
            try db.execute(sql: CampaignTallies.schema)
        }

        // Acks and withdrawals of campaign copies counted by their steps, not by a trigger
        // every event ran.
        migrator.registerMigration("campaignEventsCountedBySteps") { db in
            try db.execute(sql: CampaignTallies.eventsWithoutTrigger)
        }

        // Each item's pacing rule, and the paced deliveries the rules count (`PacingRecord`).
        migrator.registerMigration("pacing") { db in
            try db.execute(sql: PacingRecord.schema)
        }

        // Sessions' and users' pacing profiles (`ProfileRecord`).
        migrator.registerMigration("sessionProfiles") { db in
            try db.execute(sql: ProfileRecord.schema)
        }

        // Paced deliveries numbered per key, so a step seeks what its rules count (`PacingShown`).
        migrator.registerMigration("pacingNumbered") { db in
            try db.execute(sql: PacingShown.numbered)
        }

        return migrator
    }
}
