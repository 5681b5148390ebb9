import AlertQueue
import AlertSpec
import Foundation
import Testing

/// The server's session-wide pacing (`QueueSettings.profile`) through every store's step: what
/// `next` delivers, what it keeps of the modals shown, and when a waiting poll looks again.
extension QueueStoreContract {
    @Test(
        "A modal gap and a daily cap hold the next modal, a HUD flows, a critical item passes; a poll looks again when it lifts",
        arguments: StoreFactory.all)
    func sessionGapAndCap(_ factory: StoreFactory) async throws {
        let profile = SessionProfile(minModalGap: .seconds(60), maxModalsPerDay: 2)
        try await factory.withStore(QueueSettings(profile: profile)) { store in
        for (index, id) in ["app/a", "app/b", "app/c"].enumerated() { _ = try await store.enqueue(alert(id), now: at(Double(index))) }
        // The first modal goes; the second waits out the gap; a HUD does not
        #expect(try await store.drainOne(now: at(10)) == "app/a")
        #expect(try await store.next(session: session, now: at(20)) == nil)
        #expect(try await store.nextTimedChange(session: session, now: at(20)) == at(70))
        _ = try await store.enqueue(hud("app/saved"), now: at(21))
        #expect(try await store.drainOne(now: at(22)) == "app/saved")
        #expect(try await store.drainOne(now: at(70)) == "app/b")
        // Two modals today: the third waits for tomorrow (UTC), but a critical one passes
        #expect(try await store.next(session: session, now: at(200)) == nil)
        let midnight = Calendar.utc.startOfDay(for: at(200)).addingTimeInterval(86_400)
        #expect(try await store.nextTimedChange(session: session, now: at(200)) == midnight)
        _ = try await store.enqueue(alert("app/critical", priority: 950), now: at(201))
        #expect(try await store.drainOne(now: at(202)) == "app/critical")
        #expect(try await store.drainOne(now: midnight) == "app/c")
        }
    }

    @Test("Quiet hours hold modals and toasts until they end; HUDs flow", arguments: StoreFactory.all)
    func sessionQuietHours(_ factory: StoreFactory) async throws {
        // t0 is 22:13:20 UTC: quiet from 22:00 to 06:00
        try await factory.withStore(QueueSettings(profile: SessionProfile(quietHours: QuietHours("22:00-06:00")))) { store in
        _ = try await store.enqueue(alert("app/promo"), now: t0)
        _ = try await store.enqueue(toast("app/hello"), now: t0)
        _ = try await store.enqueue(hud("app/saved"), now: t0)
        #expect(try await store.drainOne(now: t0) == "app/saved")
        #expect(try await store.next(session: session, now: at(60)) == nil)
        let morning = Calendar.utc.startOfDay(for: t0).addingTimeInterval(86_400 + 6 * 3_600)
        #expect(try await store.nextTimedChange(session: session, now: at(60)) == morning)
        #expect(try await store.drainOne(now: morning) == "app/promo")
        }
    }

    @Test("A user's profile paces every session of the user; a session's own overrides it member by member", arguments: StoreFactory.all)
    func storedProfilesPace(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let directory = try #require(store as? any SessionDirectory)
            for device in ["phone", "tablet"] { _ = try await directory.register(session: device, user: "ana", topics: nil, now: t0) }
            try await store.setProfile(SessionProfile(minModalGap: .seconds(60)), for: .user("ana"))
            try await store.setProfile(SessionProfile(minModalGap: .seconds(10)), for: .session("tablet"))
            for device in ["phone", "tablet"] {
                for id in ["app/a", "app/b"] { _ = try await store.enqueue(alert(id, in: device), now: t0) }
            }
            // The phone shows one; the gap counts across ana's sessions: the tablet's own 10 s
            #expect(try await store.drainOne(session: "phone", now: at(1)) == "app/a")
            #expect(try await store.next(session: "tablet", now: at(5)) == nil)
            #expect(try await store.drainOne(session: "tablet", now: at(11)) == "app/a")
            // The phone waits out the user's 60 s from the tablet's showing
            #expect(try await store.next(session: "phone", now: at(61)) == nil)
            #expect(try await store.nextTimedChange(session: "phone", now: at(61)) == at(71))
            #expect(try await store.drainOne(session: "phone", now: at(71)) == "app/b")
            // With the user's cleared, the tablet's own 10 s still count from the phone's showing
            try await store.setProfile(nil, for: .user("ana"))
            #expect(try await store.next(session: "tablet", now: at(75)) == nil)
            #expect(try await store.drainOne(session: "tablet", now: at(81)) == "app/b")
        }
    }

    @Test("Quiet hours across the night the clocks go back end at their local time", arguments: StoreFactory.all)
    func sessionQuietHoursAcrossDST(_ factory: StoreFactory) async throws {
        // 25 October 2026 in Berlin: 03:00 CEST becomes 02:00 CET; 23:30 CEST the evening before
        let evening = Date(timeIntervalSince1970: 1_792_877_400)  // 2026-10-24T21:30:00Z
        let morning = Date(timeIntervalSince1970: 1_792_911_600)  // 2026-10-25T07:00:00Z, 08:00 CET
        let night = SessionProfile(timeZone: "Europe/Berlin", quietHours: QuietHours("22:00-08:00"))
        try await factory.withStore(QueueSettings(profile: night)) { store in
            _ = try await store.enqueue(alert("app/promo"), now: evening)
            #expect(try await store.next(session: session, now: evening) == nil)
            #expect(try await store.nextTimedChange(session: session, now: evening) == morning)
            #expect(try await store.next(session: session, now: morning.addingTimeInterval(-1)) == nil)
            #expect(try await store.next(session: session, now: morning)?.alertID == "app/promo")
        }
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }
}

extension QueueStore {
    /// Delivers the session's next item and acks it; its alert id.
    func drainOne(session: String = session, now: Date) async throws -> String? {
        guard let item = try await next(session: session, now: now) else { return nil }
        _ = try await ack(session: session, ticket: item.ticket, chain: nil, now: now)
        return item.alertID
    }
}
