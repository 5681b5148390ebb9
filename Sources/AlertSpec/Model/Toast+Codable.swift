extension ToastContent: Codable where Text: Codable {
    private enum CodingKeys: String, CodingKey { case content, appearance, animation }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        content = try c.decode(ToastNode<Text>.self, forKey: .content)
        appearance = try c.value(.appearance, default: ToastAppearance())
        animation = try c.value(.animation, default: ToastAnimation())
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(content, forKey: .content)
        try c.encode(appearance, forKey: .appearance)
        try c.encode(animation, forKey: .animation)
    }
}

/// `{"type": "text" | "image" | "spacer" | "beside" | "stacked", …}`.
extension ToastNode: Codable where Text: Codable {
    private enum CodingKeys: String, CodingKey { case type, image, size, items }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "text": self = .text(try ToastText(from: decoder))
        case "image": self = .image(try c.decode(AlertImage.self, forKey: .image), size: try c.value(.size, default: GridSize()))
        case "spacer": self = .spacer(try c.value(.size, default: GridSize()))
        case "beside": self = .beside(try c.decode([ToastNode].self, forKey: .items))
        case "stacked": self = .stacked(try c.decode([ToastNode].self, forKey: .items))
        case let other:
            throw SpecDecodingError(
                codingPath: c.codingPath + [CodingKeys.type], code: "unknown-element",
                message: "\"\(other)\" is not a toast element; use text, image, spacer, beside or stacked.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text):
            try c.encode("text", forKey: .type)
            try text.encode(to: encoder)
        case .image(let image, let size):
            try c.encode("image", forKey: .type)
            try c.encode(image, forKey: .image)
            try c.encode(size, forKey: .size)
        case .spacer(let size):
            try c.encode("spacer", forKey: .type)
            try c.encode(size, forKey: .size)
        case .beside(let items):
            try c.encode("beside", forKey: .type)
            try c.encode(items, forKey: .items)
        case .stacked(let items):
            try c.encode("stacked", forKey: .type)
            try c.encode(items, forKey: .items)
        }
    }
}

extension ToastText: Codable where Text: Codable {
    private enum CodingKeys: String, CodingKey { case text, font, color, alignment, backgroundColor, size }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try c.decode(Text.self, forKey: .text),
            font: try c.value(.font, default: Font(size: 15)) { try Font(from: $0, defaults: $1) },
            color: try c.value(.color, default: "#FFFFFFFF"), alignment: try c.value(.alignment, default: .leading),
            backgroundColor: try c.decodeIfPresent(String.self, forKey: .backgroundColor),
            size: try c.value(.size, default: GridSize()))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encode(font, forKey: .font)
        try c.encode(color, forKey: .color)
        try c.encode(alignment, forKey: .alignment)
        try c.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
        try c.encode(size, forKey: .size)
    }
}
