/// The server's session-wide pacing (`SessionProfile`): what every session gets unless its
/// user's or its own profile says otherwise (`PUT /v1/users/{user}/profile`, `…/sessions/{session}/profile`).
extension Setting {
    static let minModalGap = Setting(
        name: "min-modal-gap", environment: "ALERTD_MIN_MODAL_GAP", default: .text("off"),
        help: """
            Least time between two modals shown to a session (to any session of its user, when it has one), as \
            `30s`, `15m`, `12h` or `1d` (at most `366d`), or `off`; other alerts' modals wait it out
            """)

    static let maxModalsPerDay = Setting(
        name: "max-modals-per-day", environment: "ALERTD_MAX_MODALS_PER_DAY", default: .text("off"),
        help: """
            Most modals a session (its user's sessions together, when it has one) is shown in a calendar day of its \
            time zone, `1` to `10000`, or `off`; more wait for the next day
            """)

    static let quietHours = Setting(
        name: "quiet-hours", environment: "ALERTD_QUIET_HOURS", default: .text("off"),
        help: """
            Daily local hours, `HH:MM-HH:MM` in the session's time zone (`22:00-08:00` runs past midnight), during \
            which modals and toasts wait and HUDs still flow; or `off`
            """)

    static let timeZone = Setting(
        name: "time-zone", environment: "ALERTD_TIME_ZONE", default: .text("UTC"),
        help: "IANA time zone (`Europe/Berlin`) of sessions whose profile names none: where quiet hours and days are counted")

    static let pacingBypassPriority = Setting(
        name: "pacing-bypass-priority", environment: "ALERTD_PACING_BYPASS_PRIORITY", default: .number(900),
        help: """
            Priority, `0` to `1000`, from which an item passes the modal gap, the daily cap and quiet hours (never its \
            alert's own pacing rule)
            """)
}
