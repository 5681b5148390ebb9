import AlertQueue
import GRDB

/// `campaign_tallies`: a campaign's copies counted by state (and delivered or not), and their
/// acks (by action) and withdrawals, kept by triggers on `items` and by the steps that record
/// the events (`countEvent`). A campaign's
/// progress is then a read of a few rows, however many copies it has: counting the copies
/// themselves took 90 ms at 100,000, on every read a dashboard made while the fan-out ran.
///
/// Keys: `state:<state>:<0|1>` (delivered at least once), `event:<type>:<action>`. Counts
/// outlive the retention's purge of finished copies; a live copy deleted with its session
/// counts as cancelled.
enum CampaignTallies {
    static let schema = """
        CREATE TABLE campaign_tallies (
            campaign_id TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (campaign_id, key)) WITHOUT ROWID;
        INSERT INTO campaign_tallies
            SELECT campaign_id, \(stateKey("items")), count(*) FROM items WHERE campaign_id NOTNULL GROUP BY 1, 2;
        INSERT INTO campaign_tallies
            SELECT i.campaign_id, \(eventKey("e")), count(*)
            FROM items i, \(EventRecord.idArray("i.events")) j, events e
            WHERE i.campaign_id NOTNULL AND e.id = j.value AND e.type IN ('acknowledged', 'withdrawn')
            GROUP BY 1, 2;
        CREATE TRIGGER campaign_tallies_insert AFTER INSERT ON items WHEN NEW.campaign_id NOTNULL BEGIN
            INSERT INTO campaign_tallies VALUES (NEW.campaign_id, \(stateKey("NEW")), 1)
            ON CONFLICT (campaign_id, key) DO UPDATE SET n = n + excluded.n;
        END;
        CREATE TRIGGER campaign_tallies_move AFTER UPDATE OF state, deliveries ON items
        WHEN NEW.campaign_id NOTNULL AND \(stateKey("NEW")) IS NOT \(stateKey("OLD")) BEGIN
            INSERT INTO campaign_tallies VALUES (NEW.campaign_id, \(stateKey("OLD")), -1), (NEW.campaign_id, \(stateKey("NEW")), 1)
            ON CONFLICT (campaign_id, key) DO UPDATE SET n = n + excluded.n;
        END;
        CREATE TRIGGER campaign_tallies_erase AFTER DELETE ON items
        WHEN OLD.campaign_id NOTNULL AND OLD.state IN ('queued', 'presenting') BEGIN
            INSERT INTO campaign_tallies VALUES
                (OLD.campaign_id, \(stateKey("OLD")), -1), (OLD.campaign_id, 'state:cancelled:' || (OLD.deliveries > 0), 1)
            ON CONFLICT (campaign_id, key) DO UPDATE SET n = n + excluded.n;
        END;
        CREATE TRIGGER campaign_tallies_event AFTER INSERT ON events WHEN NEW.type IN ('acknowledged', 'withdrawn') BEGIN
            INSERT INTO campaign_tallies
                SELECT campaign_id, \(eventKey("NEW")), 1 FROM items WHERE ticket = NEW.ticket AND campaign_id NOTNULL
            ON CONFLICT (campaign_id, key) DO UPDATE SET n = n + excluded.n;
        END;
        """

    /// The events table without its trigger: the steps that record a campaign copy's ack or
    /// withdrawal count it themselves (`countEvent`). The trigger ran for every ack of every
    /// item, copy or not, looking the item up by ticket: 60 % of an event row's insert.
    static let eventsWithoutTrigger = "DROP TRIGGER campaign_tallies_event"

    /// Counts `count` events of `kind` (an ack with `action`, or a withdrawal) of `campaign`'s
    /// copies, as the dropped trigger did: other kinds are not counted.
    static func countEvent(_ kind: ItemEvent.Kind, action: String?, campaign: String, count: Int = 1, in db: Database) throws {
        guard kind == .acknowledged || kind == .withdrawn else { return }
        try db.cachedStatement(sql: addSQL).execute(arguments: [campaign, "event:\(kind.rawValue):\(action ?? "")", count])
    }

    private static let addSQL =
        "INSERT INTO campaign_tallies VALUES (?, ?, ?) ON CONFLICT (campaign_id, key) DO UPDATE SET n = n + excluded.n"

    private static func stateKey(_ row: String) -> String { "'state:' || \(row).state || ':' || (\(row).deliveries > 0)" }

    private static func eventKey(_ row: String) -> String {
        "'event:' || \(row).type || ':' || coalesce(json_extract(\(row).detail, '$.action'), '')"
    }

    /// The campaign's counts, from its tallies.
    static func progress(of campaign: String, in db: Database) throws -> CampaignProgress {
        var progress = CampaignProgress()
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT key, n FROM campaign_tallies WHERE campaign_id = ? AND n <> 0"), arguments: [campaign])
        for row in rows {
            let key: String = row[0]
            let parts = key.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { continue }
            switch parts[0] {
            case "state": progress.add(state: parts[1], delivered: parts[2] == "1", count: row[1])
            case "event": progress.add(event: parts[1], action: parts[2], count: row[1])
            default: continue
            }
        }
        return progress
    }
}
