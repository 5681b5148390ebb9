/// The popup kinds a client knows how to draw.
public enum AlertKind: String, Sendable, Codable, CaseIterable {
    /// A modal dialog (`style` dialog or large).
    case alert
    /// An action sheet.
    case sheet
    /// A heads-up display: progress, success, failure.
    case hud
    /// A non-intrusive notification.
    case toast
    /// A bottom-card flow.
    case card

    /// Where the kind queues: modal kinds present one at a time, toasts beside them, HUDs never wait.
    public var lane: Lane {
        switch self {
        case .alert, .sheet, .card: .modal
        case .toast: .toast
        case .hud: .hud
        }
    }
}

/// A delivery lane of a session's queue.
public enum Lane: String, Sendable, Codable, CaseIterable {
    case modal, toast, hud
}

/// Writing direction of the rendered text.
public enum TextDirection: String, Sendable, Codable {
    case ltr, rtl

    /// `rtl` for Arabic, Hebrew, Persian and Urdu (and their regional variants), else `ltr`.
    /// Reads the language subtag's bytes in place: splitting and lowercasing the tag made three
    /// arrays and strings per spec rendered.
    public init(locale: String) {
        let language = locale.utf8.prefix { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }
        guard language.count == 2 else {
            self = .ltr
            return
        }
        // ASCII letters in lowercase; nothing else becomes a lowercase letter through `| 0x20`.
        let first = language[language.startIndex] | 0x20
        let second = language[language.index(after: language.startIndex)] | 0x20
        self = Self.rightToLeft.contains { $0.0 == first && $0.1 == second } ? .rtl : .ltr
    }

    /// Arabic, Hebrew (and its old code), Persian, Urdu.
    private static let rightToLeft: [(UInt8, UInt8)] = ["ar", "he", "iw", "fa", "ur"].map {
        let bytes = Array($0.utf8)
        return (bytes[0], bytes[1])
    }
}
