import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Reading a pacing profile (`SessionProfile(json:at:issues:)`): every member, null as left out,
/// and every bad member one issue at its pointer.
@Suite("Session profile JSON")
struct SessionProfileJSONTests {
    private func read(_ text: String) -> (profile: SessionProfile?, issues: [SpecIssue]) {
        var issues: [SpecIssue] = []
        let json = (try? JSON(parsing: Array(text.utf8))) ?? .null
        return (SessionProfile(json: json, at: "/profile", issues: &issues), issues)
    }

    @Test("every member is read; a period may be whole seconds")
    func readsEveryMember() {
        // When
        let (profile, issues) = read(
            #"{"timeZone": "Europe/Berlin", "quietHours": "22:00-08:00", "minModalGap": "30s", "maxModalsPerDay": 5}"#)
        let (seconds, _) = read(#"{"minModalGap": 90}"#)
        // Then
        #expect(issues.isEmpty, "\(issues)")
        #expect(profile == SessionProfile(timeZone: "Europe/Berlin", quietHours: QuietHours("22:00-08:00"), minModalGap: .seconds(30), maxModalsPerDay: 5))
        #expect(seconds?.minModalGap == .seconds(90))
    }

    @Test("an empty object and null members are a profile without them")
    func nullIsLeftOut() {
        #expect(read("{}").profile == SessionProfile.none)
        let (profile, issues) = read(#"{"timeZone": null, "quietHours": null, "minModalGap": null, "maxModalsPerDay": 3}"#)
        #expect(issues.isEmpty && profile == SessionProfile(maxModalsPerDay: 3))
    }

    @Test("every bad member is an issue at its pointer, all at once")
    func badMembers() {
        // When
        let (profile, issues) = read(
            #"{"timeZone": "Mars/Olympus", "quietHours": "22:00-22:00", "minModalGap": "0s", "maxModalsPerDay": 10001, "quiet": 1}"#)
        // Then
        #expect(profile == nil)
        let found = issues.map { "\($0.pointer) \($0.code)" }
        #expect(
            found == [
                "/profile/quiet unknown-field", "/profile/timeZone unknown-time-zone", "/profile/quietHours invalid-value",
                "/profile/minModalGap invalid-value", "/profile/maxModalsPerDay out-of-range",
            ])
        #expect(issues.first { $0.pointer == "/profile/timeZone" }?.message.contains("IANA") == true)
    }

    @Test(
        "values of the wrong type or past a bound are refused",
        arguments: [
            #"{"timeZone": 3}"#, #"{"quietHours": "8-22"}"#, #"{"quietHours": "24:00-08:00"}"#, #"{"minModalGap": "367d"}"#,
            #"{"minModalGap": "30"}"#, #"{"maxModalsPerDay": 0}"#, #"{"maxModalsPerDay": 2.5}"#, #"{"maxModalsPerDay": "5"}"#, "[]", "null",
        ])
    func refused(text: String) {
        let (profile, issues) = read(text)
        #expect(profile == nil && issues.count == 1, "\(issues)")
    }
}
