/// What happens when the user picks a button or option.
public enum AlertActionType: Sendable, Equatable, Codable {
    /// Close the popup.
    case dismiss
    /// Report a named event to the app.
    case event(name: String)
    /// Open a URL or deep link (`https:`, `http:` or the app's own scheme).
    case openURL(url: String)
    /// Ask the system for a permission (a pre-prompt's "Allow" button).
    case requestPermission(Permission)
    /// Continue with another alert (`catalog/type`) and its parameters.
    case next(alert: String, params: [String: ParameterValue] = [:])

    /// Permissions a pre-prompt can ask for.
    public enum Permission: String, Sendable, Codable, CaseIterable {
        case notifications, location, camera, photos, contacts, microphone, tracking
    }

    private enum CodingKeys: String, CodingKey { case type, name, url, permission, alert, params }

    /// The `type` member of the JSON form.
    public var type: String {
        switch self {
        case .dismiss: "dismiss"
        case .event: "event"
        case .openURL: "openURL"
        case .requestPermission: "requestPermission"
        case .next: "next"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .dismiss: break
        case .event(let name): try container.encode(name, forKey: .name)
        case .openURL(let url): try container.encode(url, forKey: .url)
        case .requestPermission(let permission): try container.encode(permission, forKey: .permission)
        case .next(let alert, let params):
            try container.encode(alert, forKey: .alert)
            try container.encode(ParameterList(params), forKey: .params)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "dismiss": self = .dismiss
        case "event": self = .event(name: try container.decode(String.self, forKey: .name))
        case "openURL": self = .openURL(url: try container.decode(String.self, forKey: .url))
        case "requestPermission":
            self = .requestPermission(try container.decode(Permission.self, forKey: .permission))
        case "next":
            // A parameter given as null is a parameter left out.
            let params = try container.decodeIfPresent([String: ParameterValue?].self, forKey: .params)
            self = .next(alert: try container.decode(String.self, forKey: .alert), params: params?.compactMapValues { $0 } ?? [:])
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown action type \"\(other)\"")
        }
    }
}

/// Encodes parameters with their names in sorted order, so equal parameters give equal bytes.
public struct ParameterList: Encodable, Sendable {
    public let values: [String: ParameterValue]
    public init(_ values: [String: ParameterValue]) { self.values = values }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for name in values.keys.sorted() {
            try container.encode(values[name], forKey: AnyCodingKey(name))
        }
    }
}

/// A coding key made from any string.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
