/// Shared visual tokens. Colours are `#RRGGBB` or `#RRGGBBAA` strings; sizes are points.

/// A font: size, weight and optionally a family (else the system font).
public struct Font: Sendable, Equatable, Codable {
    public var size: Double
    public var weight: Weight
    public var family: String?

    /// The font's weight.
    public enum Weight: String, Sendable, Codable, CaseIterable { case regular, medium, semibold, bold }

    public init(size: Double = 17, weight: Weight = .regular, family: String? = nil) {
        self.size = size
        self.weight = weight
        self.family = family
    }

    /// Decodes what is given, the rest from `defaults` (the font the context would use).
    init(from decoder: any Decoder, defaults: Font) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        size = try c.value(.size, default: defaults.size)
        weight = try c.value(.weight, default: defaults.weight)
        family = try c.decodeIfPresent(String.self, forKey: .family) ?? defaults.family
    }

    public init(from decoder: any Decoder) throws { try self.init(from: decoder, defaults: Font()) }
}

/// Horizontal text alignment.
public enum TextAlignment: String, Sendable, Codable, CaseIterable { case leading, center, trailing }

/// How a piece of text looks.
public struct TextStyle: Sendable, Equatable, Codable {
    public var font: Font
    public var color: String
    public var alignment: TextAlignment

    public init(font: Font = Font(), color: String = "#000000FF", alignment: TextAlignment = .center) {
        self.font = font
        self.color = color
        self.alignment = alignment
    }

    /// Decodes with the given defaults for what is absent.
    init(from decoder: any Decoder, defaults: TextStyle) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        font = try c.value(.font, default: defaults.font) { try Font(from: $0, defaults: $1) }
        color = try c.value(.color, default: defaults.color)
        alignment = try c.value(.alignment, default: defaults.alignment)
    }

    public init(from decoder: any Decoder) throws { try self.init(from: decoder, defaults: TextStyle()) }
}

/// A displacement in points.
public struct Offset: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double = 0, y: Double = 0) {
        self.x = x
        self.y = y
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        x = try c.value(.x, default: 0)
        y = try c.value(.y, default: 0)
    }
}

/// An image: a bundled asset or a URL, optionally tinted. Exactly one of `asset` and `url`.
public struct AlertImage: Sendable, Equatable, Codable {
    public var asset: String?
    public var url: String?
    public var tint: String?

    public static func asset(_ name: String, tint: String? = nil) -> Self { .init(asset: name, url: nil, tint: tint) }
    public static func url(_ url: String, tint: String? = nil) -> Self { .init(asset: nil, url: url, tint: tint) }
}

extension KeyedDecodingContainer {
    /// The value for `key`, or `fallback` when the key is absent or null: how every optional
    /// field with a documented default is read.
    ///
    /// A value that cannot be read at `key` itself (an unknown choice, a wrong type) is recorded
    /// when the decoder collects issues (`DecodingIssues`), and `fallback` stands in, so that the
    /// spec's other problems are still found; otherwise it throws.
    func value<T: Decodable>(_ key: Key, default fallback: @autoclosure () -> T) throws -> T {
        do {
            return try decodeIfPresent(T.self, forKey: key) ?? fallback()
        } catch let error as DecodingError {
            guard let issues = DecodingIssues.collecting(error, at: codingPath + [key]) else { throw error }
            issues.record(error)
            return fallback()
        }
    }

    /// A whole number, read as any JSON number so that `7.5` is refused at its own pointer (the
    /// decoder's own error for it names no field), or `fallback` when left out.
    func wholeNumber(_ key: Key, default fallback: Int) throws -> Int {
        guard let number = try decodeIfPresent(Double.self, forKey: key) else { return fallback }
        guard number.rounded() == number else {
            throw SpecDecodingError(codingPath: codingPath + [key], code: "invalid-type", message: "This must be a whole number, not \(number).")
        }
        guard let whole = Int(exactly: number) else {
            throw SpecDecodingError(codingPath: codingPath + [key], code: "out-of-range", message: "\(number) is too large.")
        }
        return whole
    }

    /// A nested object that fills what it leaves out from the default of its context (a partial
    /// font under a title keeps the title's size), or that default when the key is absent.
    func value<T>(_ key: Key, default fallback: T, reading: (any Decoder, T) throws -> T) throws -> T {
        guard try gives(key) else { return fallback }
        return try reading(try superDecoder(forKey: key), fallback)
    }

    /// Whether `key` has a value: present and not null (a null member is a member left out).
    func gives(_ key: Key) throws -> Bool {
        try contains(key) && !decodeNil(forKey: key)
    }
}
