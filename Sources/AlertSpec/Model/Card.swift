/// A bottom-card flow: pages shown one after another, like the cards of a set-up screen.
/// Generic over its text: `LocalizedText` in a catalog, `String` in a rendered spec.
public struct CardFlow<Text> {
    /// The id of the first page. Default: the first page's.
    public var start: String
    public var pages: [CardPage<Text>]
    /// Default: `dimming`.
    public var background: CardBackground
    /// Default: `CardAppearance()`.
    public var appearance: CardAppearance

    public init(start: String? = nil, pages: [CardPage<Text>], background: CardBackground = .dimming, appearance: CardAppearance = CardAppearance()) {
        self.start = start ?? pages.first?.id ?? ""
        self.pages = pages
        self.background = background
        self.appearance = appearance
    }

    public func map<T>(_ transform: (Text) throws -> T) rethrows -> CardFlow<T> {
        CardFlow<T>(start: start, pages: try pages.map { try $0.map(transform) }, background: background, appearance: appearance)
    }
}

/// What is behind a card flow.
public enum CardBackground: String, Sendable, Codable, CaseIterable {
    case dimming, blurredLight, blurredExtraLight, blurredDark, none
}

/// One card of a flow.
public struct CardPage<Text> {
    public var id: String
    public var title: Text
    public var image: AlertImage?
    public var description: Text?
    /// The main button: performs its action, then goes to `next` (or ends the flow).
    public var actionButton: CardButton<Text>?
    /// The secondary button ("Not now"): performs its action, then goes to `next` (or ends).
    public var alternativeButton: CardButton<Text>?
    /// The id of the page that follows; nil ends the flow after this page.
    public var next: String?
    /// Whether the user may swipe the card away, ending the flow. Default: true.
    public var dismissable: Bool

    public init(
        id: String, title: Text, image: AlertImage? = nil, description: Text? = nil, actionButton: CardButton<Text>? = nil,
        alternativeButton: CardButton<Text>? = nil, next: String? = nil, dismissable: Bool = true
    ) {
        self.id = id
        self.title = title
        self.image = image
        self.description = description
        self.actionButton = actionButton
        self.alternativeButton = alternativeButton
        self.next = next
        self.dismissable = dismissable
    }

    public func map<T>(_ transform: (Text) throws -> T) rethrows -> CardPage<T> {
        CardPage<T>(
            id: id, title: try transform(title), image: image, description: try description.map(transform),
            actionButton: try actionButton.map { try $0.map(transform) },
            alternativeButton: try alternativeButton.map { try $0.map(transform) }, next: next, dismissable: dismissable)
    }
}

/// A card button: its words and what it does.
public struct CardButton<Text> {
    public var title: Text
    /// Default: dismiss.
    public var action: AlertActionType
    /// Whether the app hides the card and shows an activity indicator while it does the work
    /// behind the button (its action, the acknowledgement), then goes to `next` or ends the
    /// flow. Default: false.
    public var showsActivity: Bool

    public init(title: Text, action: AlertActionType = .dismiss, showsActivity: Bool = false) {
        self.title = title
        self.action = action
        self.showsActivity = showsActivity
    }

    public func map<T>(_ transform: (Text) throws -> T) rethrows -> CardButton<T> {
        CardButton<T>(title: try transform(title), action: action, showsActivity: showsActivity)
    }
}

/// Colours of a card flow.
public struct CardAppearance: Sendable, Equatable, Codable {
    /// Default: `#007AFFFF`.
    public var tintColor: String
    /// Default: `#007AFFFF`.
    public var actionButtonColor: String
    /// Default: `#FFFFFFFF`.
    public var actionButtonTitleColor: String
    /// Default: `#007AFFFF`.
    public var alternativeButtonTitleColor: String
    /// Default: `#000000FF`.
    public var titleColor: String

    public init(
        tintColor: String = "#007AFFFF", actionButtonColor: String = "#007AFFFF", actionButtonTitleColor: String = "#FFFFFFFF",
        alternativeButtonTitleColor: String = "#007AFFFF", titleColor: String = "#000000FF"
    ) {
        self.tintColor = tintColor
        self.actionButtonColor = actionButtonColor
        self.actionButtonTitleColor = actionButtonTitleColor
        self.alternativeButtonTitleColor = alternativeButtonTitleColor
        self.titleColor = titleColor
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let standard = CardAppearance()
        tintColor = try c.value(.tintColor, default: standard.tintColor)
        actionButtonColor = try c.value(.actionButtonColor, default: standard.actionButtonColor)
        actionButtonTitleColor = try c.value(.actionButtonTitleColor, default: standard.actionButtonTitleColor)
        alternativeButtonTitleColor = try c.value(.alternativeButtonTitleColor, default: standard.alternativeButtonTitleColor)
        titleColor = try c.value(.titleColor, default: standard.titleColor)
    }
}

extension CardFlow: Sendable where Text: Sendable {}
extension CardFlow: Equatable where Text: Equatable {}
extension CardPage: Sendable where Text: Sendable {}
extension CardPage: Equatable where Text: Equatable {}
extension CardButton: Sendable where Text: Sendable {}
extension CardButton: Equatable where Text: Equatable {}

extension CardFlow: Codable where Text: Codable {
    private enum CodingKeys: String, CodingKey { case start, pages, background, appearance }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let pages = try c.decode([CardPage<Text>].self, forKey: .pages)
        self.init(
            start: try c.decodeIfPresent(String.self, forKey: .start), pages: pages,
            background: try c.value(.background, default: .dimming), appearance: try c.value(.appearance, default: CardAppearance()))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(start, forKey: .start)
        try c.encode(pages, forKey: .pages)
        try c.encode(background, forKey: .background)
        try c.encode(appearance, forKey: .appearance)
    }
}

extension CardPage: Codable where Text: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, image, description, actionButton, alternativeButton, next, dismissable
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id), title: try c.decode(Text.self, forKey: .title),
            image: try c.decodeIfPresent(AlertImage.self, forKey: .image),
            description: try c.decodeIfPresent(Text.self, forKey: .description),
            actionButton: try c.decodeIfPresent(CardButton<Text>.self, forKey: .actionButton),
            alternativeButton: try c.decodeIfPresent(CardButton<Text>.self, forKey: .alternativeButton),
            next: try c.decodeIfPresent(String.self, forKey: .next), dismissable: try c.value(.dismissable, default: true))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(image, forKey: .image)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(actionButton, forKey: .actionButton)
        try c.encodeIfPresent(alternativeButton, forKey: .alternativeButton)
        try c.encodeIfPresent(next, forKey: .next)
        try c.encode(dismissable, forKey: .dismissable)
    }
}

extension CardButton: Codable where Text: Codable {
    private enum CodingKeys: String, CodingKey { case title, action, showsActivity }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decode(Text.self, forKey: .title), action: try c.value(.action, default: .dismiss),
            showsActivity: try c.value(.showsActivity, default: false))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encode(action, forKey: .action)
        try c.encode(showsActivity, forKey: .showsActivity)
    }
}
