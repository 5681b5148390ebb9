/// One alert of a catalog, Moya-style: a catalog is an enum, each requirement a computed
/// property with one `switch self`, and associated values are the alert's parameters.
///
/// ```swift
/// enum AppAlert: AlertTarget {
///     case questionExit
///     case newMessages(count: Int, sender: String)
///
///     var title: LocalizedText? {
///         switch self {
///         case .questionExit: LocalizedText("questionExit.title", default: "Leave the question?")
///         case .newMessages(_, let sender): LocalizedText("newMessages.title", default: "%@ wrote", .string(sender))
///         }
///     }
///     var actions: [AlertAction] { … }
///     static var samples: [AppAlert] { [.questionExit, .newMessages(count: 3, sender: "Ana")] }
/// }
/// ```
///
/// The enum's synthesized `Codable` conformance gives each case its type name (the case name)
/// and its parameters (the labelled associated values: integers, numbers, strings, booleans,
/// optional when the value is optional). Adding an alert means adding a case, its `switch`
/// arms (the compiler lists them), its sample and its strings.
public protocol AlertTarget: Codable, Sendable {
    /// The kind of popup. Default: `.alert`.
    var kind: AlertKind { get }
    /// For alerts: `.dialog` or `.large`. Default: `.dialog`.
    var style: AlertStyle { get }
    /// The headline. An alert needs a title, a message, or both. Default: none.
    var title: LocalizedText? { get }
    /// The body text. For a HUD, its caption. Default: none.
    var message: LocalizedText? { get }
    /// An image above the text. Default: none.
    var image: AlertImage? { get }
    /// For alerts: a text field under the message. Default: none.
    var input: InputField? { get }
    /// The buttons, in display order; for a sheet, its options and (else the standard one) its
    /// cancel. Default: none.
    var actions: [AlertAction] { get }
    /// 0…1000, higher first when queued. Default: 500.
    var priority: Int { get }
    /// How the alert appears. Default: `Presentation()`.
    var presentation: Presentation { get }
    /// How the alert looks: fonts, colours, border. Default: `DialogAppearance()`.
    var appearance: DialogAppearance { get }
    /// For HUDs: state, progress and auto-hide. Default: a progress HUD.
    var hud: HUDContent { get }
    /// For toasts: the layout, placement and animation. Default: none (a toast needs one).
    var toast: ToastContent<LocalizedText>? { get }
    /// For cards: the pages of the flow. Default: none (a card needs one).
    var card: CardFlow<LocalizedText>? { get }
    /// The key that makes two queued alerts the same; nil means type plus parameters. Default: nil.
    var dedupeKey: String? { get }
    /// How often it may be shown (`Pacing`): one rule per alert type, read from the type's
    /// sample for the catalog listing and every enqueue, so it does not depend on the
    /// parameters. Default: `.none`.
    var pacing: Pacing { get }
    /// One value per case with example parameters (Moya's `sampleData`): it feeds the catalog
    /// listing, documentation and the tests that render every case.
    static var samples: [Self] { get }
}

extension AlertTarget {
    public var kind: AlertKind { .alert }
    public var title: LocalizedText? { nil }
    public var message: LocalizedText? { nil }
    public var style: AlertStyle { .dialog }
    public var image: AlertImage? { nil }
    public var input: InputField? { nil }
    public var actions: [AlertAction] { [] }
    public var priority: Int { 500 }
    public var presentation: Presentation { Presentation() }
    public var appearance: DialogAppearance { DialogAppearance() }
    public var hud: HUDContent { HUDContent(state: .progress) }
    public var toast: ToastContent<LocalizedText>? { nil }
    public var card: CardFlow<LocalizedText>? { nil }
    public var dedupeKey: String? { nil }
    public var pacing: Pacing { .none }
}
