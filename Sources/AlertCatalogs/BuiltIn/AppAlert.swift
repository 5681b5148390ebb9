import AlertSpec
import Foundation

/// The built-in `app` catalog: the popups of a question-and-answer app with messaging.
///
/// Each case is one alert type; its labelled associated values are its parameters. Strings are
/// written in the source language (English) and keyed `<type>.<part>`.
public enum AppAlert: AlertTarget {
    /// Leaving the question editor with unsaved text.
    case questionExit
    /// Leaving the answer editor with unsaved text.
    case answerExit
    /// Logging out, confirmed with the standard OK and Cancel buttons.
    case logoutConfirm
    /// New messages arrived from someone; opens the inbox.
    case newMessages(count: Int, sender: String)
    /// Asks before the system's notification permission prompt.
    case pushPermission
    /// Work in progress.
    case loading
    /// Something was saved.
    case saved
    /// Something failed.
    case failed
    /// Sharing a question: copy the link, send it, or more.
    case shareSheet
    /// A friend sent a red packet (a cash gift); opens the wallet.
    case redPacket(amount: Double, sender: String)
    /// Someone invited the user; shows the code and joins with it.
    case inviteCode(code: String, inviter: String)
    /// Asks for an invite code in a text field.
    case redeemInvite
    /// Asks before the system's location permission prompt.
    case locationPermission
    /// A welcome toast for a returning user.
    case welcomeToast(name: String)
    /// An upload in progress, in percent (0…100).
    case uploadProgress(percent: Int)

    public static var samples: [AppAlert] {
        [.questionExit, .answerExit, .logoutConfirm, .newMessages(count: 3, sender: "Ana"), .pushPermission,
         .loading, .saved, .failed, .shareSheet, .redPacket(amount: 8.88, sender: "Wei"),
         .inviteCode(code: "Q7-KD92", inviter: "Sam"), .redeemInvite, .locationPermission, .welcomeToast(name: "Ana"),
         .uploadProgress(percent: 40)]
    }

    public var kind: AlertKind {
        switch self {
        case .questionExit, .answerExit, .logoutConfirm, .newMessages, .pushPermission, .redPacket, .inviteCode,
            .redeemInvite, .locationPermission:
            .alert
        case .shareSheet: .sheet
        case .welcomeToast: .toast
        case .loading, .saved, .failed, .uploadProgress: .hud
        }
    }

    public var style: AlertStyle {
        switch self {
        case .pushPermission, .redPacket, .locationPermission: .large
        default: .dialog
        }
    }

    public var title: LocalizedText? {
        switch self {
        case .questionExit: LocalizedText("questionExit.title", default: "Leave this question?")
        case .answerExit: LocalizedText("answerExit.title", default: "Discard your answer?")
        case .logoutConfirm: LocalizedText("logoutConfirm.title", default: "Log out?")
        case .newMessages(_, let sender):
            LocalizedText("newMessages.title", default: "New messages from %@", .string(sender))
        case .pushPermission: LocalizedText("pushPermission.title", default: "Stay in the loop")
        case .shareSheet: LocalizedText("shareSheet.title", default: "Share this question")
        case .redPacket(_, let sender): LocalizedText("redPacket.title", default: "%@ sent you a red packet", .string(sender))
        case .inviteCode: LocalizedText("inviteCode.title", default: "You're invited")
        case .redeemInvite: LocalizedText("redeemInvite.title", default: "Have an invite code?")
        case .locationPermission: LocalizedText("locationPermission.title", default: "Questions near you")
        case .loading, .saved, .failed, .uploadProgress, .welcomeToast: nil
        }
    }

    public var message: LocalizedText? {
        switch self {
        case .questionExit:
            LocalizedText("questionExit.message", default: "What you have written so far will not be saved.")
        case .answerExit:
            LocalizedText("answerExit.message", default: "Your answer has not been posted yet. If you leave now, it will be lost.")
        case .logoutConfirm:
            LocalizedText("logoutConfirm.message", default: "You can log back in at any time with your email address.")
        case .newMessages(let count, _):
            LocalizedText("newMessages.message", default: "You have %'lld new messages.", .integer(count))
        case .pushPermission:
            LocalizedText(
                "pushPermission.message",
                default: "Turn on notifications to hear when someone answers your question or sends you a message.")
        case .loading: LocalizedText("loading.message", default: "Loading…")
        case .saved: LocalizedText("saved.message", default: "Saved")
        case .failed: LocalizedText("failed.message", default: "Something went wrong. Please try again.")
        case .shareSheet: LocalizedText("shareSheet.message", default: "Friends who know the answer can help faster.")
        case .redPacket(let amount, _):
            LocalizedText("redPacket.message", default: "Open it before midnight to collect ¥%.2f.", .number(amount))
        case .inviteCode(let code, let inviter):
            LocalizedText(
                "inviteCode.message", default: "%1$@ invited you to join. Your invite code is %2$@.", .string(inviter),
                .string(code))
        case .redeemInvite: LocalizedText("redeemInvite.message", default: "Enter it to unlock your invite rewards.")
        case .locationPermission:
            LocalizedText(
                "locationPermission.message",
                default: "Allow location access to see questions asked around you. We never share where you are.")
        case .uploadProgress(let percent): LocalizedText("uploadProgress.message", default: "Uploading… %lld%%", .integer(percent))
        case .welcomeToast: nil
        }
    }

    public var image: AlertImage? {
        switch self {
        case .newMessages: .asset("envelope", tint: "#007AFF")
        case .pushPermission: .asset("bell.badge", tint: "#FF9500")
        case .redPacket: .url("https://cdn.example.com/alertd/red-packet.png")
        case .locationPermission: .asset("location.circle", tint: "#34C759")
        default: nil
        }
    }

    public var actions: [AlertAction] {
        switch self {
        case .questionExit:
            [.cancel(),
             AlertAction(id: "leave", label: LocalizedText("questionExit.leave", default: "Leave"), role: .destructive,
                         action: .event(name: "questionExit.leave"))]
        case .answerExit:
            [.cancel(),
             AlertAction(id: "discard", label: LocalizedText("answerExit.discard", default: "Discard"), role: .destructive,
                         action: .event(name: "answerExit.discard"))]
        case .logoutConfirm:
            [.cancel(), .ok(action: .event(name: "logout"))]
        case .newMessages:
            [AlertAction(id: "later", label: LocalizedText("newMessages.later", default: "Later"), role: .cancel),
             AlertAction(id: "read", label: LocalizedText("newMessages.read", default: "Read"), role: .primary,
                         action: .openURL(url: "alertd-demo://inbox"))]
        case .pushPermission:
            [AlertAction(id: "notNow", label: SystemText.notNow.text, role: .cancel),
             AlertAction(id: "allow", label: LocalizedText("pushPermission.allow", default: "Turn on"), role: .primary,
                         action: .requestPermission(.notifications))]
        case .shareSheet:
            [AlertAction(id: "copyLink", label: LocalizedText("shareSheet.copyLink", default: "Copy link"),
                         action: .event(name: "share.copyLink")),
             AlertAction(id: "messages", label: LocalizedText("shareSheet.messages", default: "Send in Messages"),
                         action: .event(name: "share.messages")),
             AlertAction(id: "mail", label: LocalizedText("shareSheet.mail", default: "Send by email"),
                         action: .openURL(url: "mailto:?subject=A%20question%20for%20you")),
             AlertAction(id: "more", label: LocalizedText("shareSheet.more", default: "More…"), action: .event(name: "share.more"))]
        case .redPacket:
            [AlertAction(id: "later", label: LocalizedText("redPacket.later", default: "Later"), role: .cancel),
             AlertAction(id: "open", label: LocalizedText("redPacket.open", default: "Open"), role: .primary,
                         action: .openURL(url: "alertd-demo://wallet/red-packets"))]
        case .inviteCode(let code, _):
            [AlertAction(id: "copy", label: LocalizedText("inviteCode.copy", default: "Copy code"),
                         action: .event(name: "inviteCode.copy")),
             AlertAction(id: "join", label: LocalizedText("inviteCode.join", default: "Join now"), role: .primary,
                         action: .openURL(url: "alertd-demo://invite/" + (code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))]
        case .redeemInvite:
            [.cancel(),
             AlertAction(id: "redeem", label: LocalizedText("redeemInvite.redeem", default: "Redeem"), role: .primary,
                         action: .event(name: "inviteCode.redeem"))]
        case .locationPermission:
            [AlertAction(id: "notNow", label: SystemText.notNow.text, role: .cancel),
             AlertAction(id: "allow", label: LocalizedText("locationPermission.allow", default: "Allow location"), role: .primary,
                         action: .requestPermission(.location))]
        case .loading, .saved, .failed, .uploadProgress, .welcomeToast: []
        }
    }

    public var input: InputField? {
        switch self {
        case .redeemInvite: InputField(placeholder: LocalizedText("redeemInvite.placeholder", default: "Invite code"))
        default: nil
        }
    }

    public var priority: Int {
        switch self {
        case .logoutConfirm, .questionExit, .answerExit: 700
        case .newMessages, .inviteCode: 400
        case .pushPermission, .locationPermission, .redeemInvite: 300
        case .redPacket: 600
        case .shareSheet: 800
        case .welcomeToast: 200
        case .loading, .saved, .failed, .uploadProgress: 900
        }
    }

    public var hud: HUDContent {
        switch self {
        case .saved: HUDContent(state: .success, autoHide: 1.5)
        case .failed: HUDContent(state: .failed, autoHide: 3)
        case .uploadProgress(let percent): HUDContent(state: .progress, progress: Double(percent) / 100)
        default: HUDContent(state: .progress)
        }
    }

    public var presentation: Presentation {
        switch self {
        case .pushPermission: Presentation(dismissOnTapOutside: false, animation: .fade, actionsLayout: .vertical)
        case .newMessages: Presentation(dismissOnTapOutside: true)
        case .redPacket: Presentation(maskColor: "#000000B3", animation: .standard, animationDuration: 0.35, actionsLayout: .vertical)
        case .locationPermission: Presentation(animation: .fade, headerLayout: .vertical, actionsLayout: .vertical)
        default: Presentation()
        }
    }

    public var appearance: DialogAppearance {
        switch self {
        case .redPacket:
            DialogAppearance(
                title: TextStyle(font: Font(size: 20, weight: .bold), color: "#FFD98AFF"),
                message: TextStyle(font: Font(size: 15), color: "#FFF4DDFF"), backgroundColor: "#D9302CFF", cornerRadius: 20)
        default: DialogAppearance()
        }
    }

    /// Permission pre-prompts ask a device at most once a month, and one that cannot ask now is
    /// dropped: it would be stale by the time it could. New messages come a minute apart at
    /// least, the later ones waiting their turn.
    public var pacing: Pacing {
        switch self {
        case .pushPermission, .locationPermission: Pacing(limits: [.init(count: 1, period: .days(30))], whenCapped: .drop)
        case .newMessages: Pacing(minGap: .init(duration: .seconds(60)), whenCapped: .defer)
        default: .none
        }
    }

    /// Messages from one sender replace each other in the queue whatever the count.
    public var dedupeKey: String? {
        switch self {
        case .newMessages(_, let sender): "newMessages:\(sender)"
        default: nil
        }
    }
}
