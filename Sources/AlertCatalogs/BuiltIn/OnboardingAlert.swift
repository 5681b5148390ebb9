import AlertSpec

/// The built-in `onboarding` catalog: the bottom-card flow of a first launch, like the cards of
/// iOS set-up screens — notifications, then location, then done.
public enum OnboardingAlert: AlertTarget {
    /// The first-launch flow.
    case setup

    public static var samples: [OnboardingAlert] { [.setup] }

    public var kind: AlertKind { .card }
    public var priority: Int { 800 }
    /// A first launch happens once on a device: the flow is shown once per session ever, and
    /// dropped rather than kept when it has been.
    public var pacing: Pacing { Pacing(once: .init(scope: .session), whenCapped: .drop) }

    public var card: CardFlow<LocalizedText>? {
        switch self {
        case .setup:
            CardFlow(
                start: "notifications",
                pages: [
                    CardPage(
                        id: "notifications", title: LocalizedText("setup.notifications.title", default: "Never miss an answer"),
                        image: .asset("bell.badge.fill", tint: "#FF9500"),
                        description: LocalizedText(
                            "setup.notifications.description",
                            default: "We'll let you know when someone answers your question — nothing else."),
                        actionButton: CardButton(
                            title: LocalizedText("setup.notifications.allow", default: "Turn on notifications"),
                            action: .requestPermission(.notifications)),
                        alternativeButton: CardButton(title: SystemText.notNow.text),
                        next: "location", dismissable: false),
                    CardPage(
                        id: "location", title: LocalizedText("setup.location.title", default: "Find questions near you"),
                        image: .asset("location.fill", tint: "#34C759"),
                        description: LocalizedText(
                            "setup.location.description", default: "See what people around you are asking. You can change this any time."),
                        actionButton: CardButton(
                            title: LocalizedText("setup.location.allow", default: "Allow location"),
                            action: .requestPermission(.location)),
                        alternativeButton: CardButton(title: SystemText.notNow.text),
                        next: "done", dismissable: false),
                    CardPage(
                        id: "done", title: LocalizedText("setup.done.title", default: "You're all set"),
                        image: .asset("checkmark.circle.fill", tint: "#34C759"),
                        description: LocalizedText("setup.done.description", default: "Ask your first question, or invite a friend."),
                        actionButton: CardButton(
                            title: LocalizedText("setup.done.start", default: "Start exploring"),
                            action: .event(name: "onboarding.done"), showsActivity: true),
                        alternativeButton: CardButton(
                            title: LocalizedText("setup.done.invite", default: "I have an invite code"),
                            action: .next(alert: "app/redeemInvite"))),
                ],
                background: .dimming)
        }
    }
}
