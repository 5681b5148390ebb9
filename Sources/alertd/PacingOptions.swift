import AlertQueue
import AlertSpec
import ArgumentParser
import Foundation

/// `--min-modal-gap`, `--max-modals-per-day`, `--quiet-hours`, `--time-zone` and
/// `--pacing-bypass-priority` of `alertd serve`: the server's session-wide pacing, under each
/// user's and session's profile (`QueueSettings.profile`, `.bypassPriority`).
struct PacingOptions: ParsableArguments {
    @Option(name: Setting.minModalGap.optionName, help: Setting.minModalGap.optionHelp)
    var minModalGap: String?

    @Option(name: Setting.maxModalsPerDay.optionName, help: Setting.maxModalsPerDay.optionHelp)
    var maxModalsPerDay: String?

    @Option(name: Setting.quietHours.optionName, help: Setting.quietHours.optionHelp)
    var quietHours: String?

    @Option(name: Setting.timeZone.optionName, help: Setting.timeZone.optionHelp)
    var timeZone: String?

    @Option(name: Setting.pacingBypassPriority.optionName, help: Setting.pacingBypassPriority.optionHelp)
    var pacingBypassPriority: Int?

    /// The server's profile and bypass priority, a problem reported for each value that is not one.
    func resolve(_ settings: inout Settings) -> (profile: SessionProfile, bypassPriority: Int) {
        var profile = SessionProfile()
        let gap = settings.string(minModalGap, .minModalGap)
        if gap != "off" {
            if let period = Period(gap), period <= Pacing.maxPeriod {
                profile.minModalGap = period
            } else {
                settings.report("--min-modal-gap must be off or \(Period.expected), at most \(Pacing.maxPeriod), not \(gap)")
            }
        }
        let cap = settings.string(maxModalsPerDay, .maxModalsPerDay)
        if cap != "off" {
            if let count = Int(cap), (1...SessionProfile.maxModalsLimit).contains(count) {
                profile.maxModalsPerDay = count
            } else {
                settings.report("--max-modals-per-day must be off or a whole number from 1 to \(SessionProfile.maxModalsLimit), not \(cap)")
            }
        }
        let hours = settings.string(quietHours, .quietHours)
        if hours != "off" {
            if let quiet = QuietHours(hours) {
                profile.quietHours = quiet
            } else {
                settings.report("--quiet-hours must be off or \(QuietHours.expected), not \(hours)")
            }
        }
        let zone = settings.string(timeZone, .timeZone)
        if TimeZone(identifier: zone) != nil {
            profile.timeZone = zone
        } else {
            settings.report("--time-zone must be an IANA time zone this system knows, such as Europe/Berlin, not \(zone)")
        }
        let bypass = settings.integer(pacingBypassPriority, .pacingBypassPriority)
        if !(0...1_000).contains(bypass) { settings.report("--pacing-bypass-priority must be from 0 to 1000, not \(bypass)") }
        return (profile, bypass)
    }
}
