/// The kind of device an alert is shown on, as String Catalogs vary text by it. The raw values
/// are Xcode's keys in `variations.device`.
public enum Device: String, Sendable, Hashable, CaseIterable {
    case iphone, ipad, ipod, mac, applewatch, appletv, applevision, other

    /// The device a `?device=` value names: Xcode's key, or the short names `watch`, `tv`
    /// and `vision`. Nil for anything else.
    public init?(query: String) {
        switch query.lowercased() {
        case "watch": self = .applewatch
        case "tv": self = .appletv
        case "vision": self = .applevision
        default: self.init(rawValue: query.lowercased())
        }
    }

    /// The device a `?platform=` value implies when no device is named: an iOS app runs on an
    /// iPhone unless told otherwise; Android has no Xcode variation.
    public init(platform: String?) {
        switch platform?.lowercased() {
        case "ios": self = .iphone
        case "ipados": self = .ipad
        case "macos": self = .mac
        case "watchos": self = .applewatch
        case "tvos": self = .appletv
        case "visionos": self = .applevision
        default: self = .other
        }
    }

    /// The names `?device=` takes, for messages and documentation.
    public static let queryNames = ["iphone", "ipad", "ipod", "mac", "watch", "tv", "vision", "other"]
}

/// What one rendering is for: the catalog locale of its text, the locale of the platform's own
/// words (OK, Cancel), and the device. The words follow the client's language even where the
/// catalog has no translation of its own, as the system's buttons do.
public struct RenderContext: Sendable, Hashable {
    /// One of the catalog's locales.
    public var locale: String
    /// The locale the system words are in.
    public var systemLocale: String
    public var device: Device

    public init(locale: String, systemLocale: String? = nil, device: Device = .other) {
        self.locale = locale
        self.systemLocale = systemLocale ?? locale
        self.device = device
    }
}
