/// A toast: a small layout of text, images and spaces shown without interrupting, with its
/// placement and animation. Generic over its text: `LocalizedText` in a catalog, `String` in a
/// rendered spec (`AlertSpec.Toast`).
public struct ToastContent<Text> {
    public var content: ToastNode<Text>
    /// Default: `ToastAppearance()`.
    public var appearance: ToastAppearance
    /// Default: `ToastAnimation()`.
    public var animation: ToastAnimation

    public init(content: ToastNode<Text>, appearance: ToastAppearance = ToastAppearance(), animation: ToastAnimation = ToastAnimation()) {
        self.content = content
        self.appearance = appearance
        self.animation = animation
    }

    public func map<T>(_ transform: (Text) throws -> T) rethrows -> ToastContent<T> {
        ToastContent<T>(content: try content.map(transform), appearance: appearance, animation: animation)
    }
}

/// One element of a toast's layout: a leaf with a grid size, or a row or column of elements.
public indirect enum ToastNode<Text> {
    case text(ToastText<Text>)
    case image(AlertImage, size: GridSize = GridSize())
    case spacer(GridSize = GridSize())
    /// Left to right.
    case beside([ToastNode<Text>])
    /// Top to bottom.
    case stacked([ToastNode<Text>])

    public func map<T>(_ transform: (Text) throws -> T) rethrows -> ToastNode<T> {
        switch self {
        case .text(let text): .text(try text.map(transform))
        case .image(let image, let size): .image(image, size: size)
        case .spacer(let size): .spacer(size)
        case .beside(let items): .beside(try items.map { try $0.map(transform) })
        case .stacked(let items): .stacked(try items.map { try $0.map(transform) })
        }
    }
}

/// A text leaf of a toast.
public struct ToastText<Text> {
    public var text: Text
    /// Default: 15 pt regular.
    public var font: Font
    /// Default: `#FFFFFFFF`.
    public var color: String
    /// Default: `leading`.
    public var alignment: TextAlignment
    public var backgroundColor: String?
    /// Default: 1×1.
    public var size: GridSize

    public init(
        _ text: Text, font: Font = Font(size: 15), color: String = "#FFFFFFFF", alignment: TextAlignment = .leading,
        backgroundColor: String? = nil, size: GridSize = GridSize()
    ) {
        self.text = text
        self.font = font
        self.color = color
        self.alignment = alignment
        self.backgroundColor = backgroundColor
        self.size = size
    }

    public func map<T>(_ transform: (Text) throws -> T) rethrows -> ToastText<T> {
        ToastText<T>(
            try transform(text), font: font, color: color, alignment: alignment, backgroundColor: backgroundColor,
            size: size)
    }
}

/// A size in cells of the toast's layout grid: fractions allowed (`7.5`, `0.25`), as the
/// toast layouts alertd serves are drawn from; more than 0 and at most 12 each.
public struct GridSize: Sendable, Equatable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double = 1, height: Double = 1) {
        self.width = width
        self.height = height
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        width = try c.value(.width, default: 1)
        height = try c.value(.height, default: 1)
    }
}

/// Where a toast sits and how its box looks.
public struct ToastAppearance: Sendable, Equatable, Codable {
    /// Default: `top`.
    public var position: Position
    /// Points from the edge named by `position` (from the centre for `center`). Default: 16.
    public var offset: Double
    /// Default: 90 % of the width, 10 % of the height of the screen.
    public var size: ToastSize
    /// Default: `ToastStyle()`.
    public var style: ToastStyle

    /// The edge of the screen the toast sits at, or its centre.
    public enum Position: String, Sendable, Codable, CaseIterable { case top, center, bottom }

    public init(position: Position = .top, offset: Double = 16, size: ToastSize = .relative(xRatio: 0.9, yRatio: 0.1), style: ToastStyle = ToastStyle()) {
        self.position = position
        self.offset = offset
        self.size = size
        self.style = style
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        position = try c.value(.position, default: .top)
        offset = try c.value(.offset, default: 16)
        size = try c.value(.size, default: .relative(xRatio: 0.9, yRatio: 0.1))
        style = try c.value(.style, default: ToastStyle())
    }
}

/// A toast's size: absolute points, or ratios (0 < r ≤ 1) of the screen.
public enum ToastSize: Sendable, Equatable, Codable {
    case absolute(width: Double, height: Double)
    case relative(xRatio: Double, yRatio: Double)

    private enum CodingKeys: String, CodingKey { case width, height, xRatio, yRatio }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if try c.gives(.xRatio) || c.gives(.yRatio) {
            self = .relative(xRatio: try c.decode(Double.self, forKey: .xRatio), yRatio: try c.decode(Double.self, forKey: .yRatio))
        } else {
            self = .absolute(width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .absolute(let width, let height):
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
        case .relative(let x, let y):
            try c.encode(x, forKey: .xRatio)
            try c.encode(y, forKey: .yRatio)
        }
    }
}

/// The toast's box.
public struct ToastStyle: Sendable, Equatable, Codable {
    /// Default: `#1C1C1EF2`.
    public var backgroundColor: String
    /// Default: 12.
    public var cornerRadius: Double

    public init(backgroundColor: String = "#1C1C1EF2", cornerRadius: Double = 12) {
        self.backgroundColor = backgroundColor
        self.cornerRadius = cornerRadius
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        backgroundColor = try c.value(.backgroundColor, default: "#1C1C1EF2")
        cornerRadius = try c.value(.cornerRadius, default: 12)
    }
}

/// How a toast comes and goes.
public struct ToastAnimation: Sendable, Equatable, Codable {
    /// `automatic`: hides itself after `duration`; `manual`: stays until dismissed. Default: automatic.
    public var transition: Transition
    /// Seconds shown between the show and hide animations. Default: 3.
    public var duration: Double
    /// Default: fade in from alpha 0 over 0.3 s.
    public var show: [AnimationStep]
    /// Default: fade out to alpha 0 over 0.3 s.
    public var hide: [AnimationStep]

    /// Whether the toast hides itself (`automatic`) or waits to be dismissed (`manual`).
    public enum Transition: String, Sendable, Codable, CaseIterable { case automatic, manual }

    public static let fadeIn = [AnimationStep(from: AnimationState(alpha: 0), to: AnimationState())]
    public static let fadeOut = [AnimationStep(from: AnimationState(), to: AnimationState(alpha: 0))]

    public init(transition: Transition = .automatic, duration: Double = 3, show: [AnimationStep] = fadeIn, hide: [AnimationStep] = fadeOut) {
        self.transition = transition
        self.duration = duration
        self.show = show
        self.hide = hide
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transition = try c.value(.transition, default: .automatic)
        duration = try c.value(.duration, default: 3)
        show = try c.value(.show, default: Self.fadeIn)
        hide = try c.value(.hide, default: Self.fadeOut)
    }
}

/// One step of an animation, from one state to another.
public struct AnimationStep: Sendable, Equatable, Codable {
    /// Seconds. Default: 0.3.
    public var duration: Double
    /// Seconds before the step starts. Default: 0.
    public var delay: Double
    /// Default: `easeInOut`.
    public var curve: Curve
    public var from: AnimationState
    public var to: AnimationState

    /// The step's timing curve.
    public enum Curve: String, Sendable, Codable, CaseIterable { case linear, easeIn, easeOut, easeInOut, spring }

    public init(duration: Double = 0.3, delay: Double = 0, curve: Curve = .easeInOut, from: AnimationState = AnimationState(), to: AnimationState = AnimationState()) {
        self.duration = duration
        self.delay = delay
        self.curve = curve
        self.from = from
        self.to = to
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        duration = try c.value(.duration, default: 0.3)
        delay = try c.value(.delay, default: 0)
        curve = try c.value(.curve, default: .easeInOut)
        from = try c.value(.from, default: AnimationState())
        to = try c.value(.to, default: AnimationState())
    }
}

/// A visual state an animation moves through.
public struct AnimationState: Sendable, Equatable, Codable {
    /// 0…1. Default: 1.
    public var alpha: Double
    /// Default: 1.
    public var scale: Double
    /// Degrees. Default: 0.
    public var rotation: Double
    /// Points. Default: 0, 0.
    public var translation: Offset

    public init(alpha: Double = 1, scale: Double = 1, rotation: Double = 0, translation: Offset = Offset()) {
        self.alpha = alpha
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        alpha = try c.value(.alpha, default: 1)
        scale = try c.value(.scale, default: 1)
        rotation = try c.value(.rotation, default: 0)
        translation = try c.value(.translation, default: Offset())
    }
}

extension ToastContent: Sendable where Text: Sendable {}
extension ToastContent: Equatable where Text: Equatable {}
extension ToastNode: Sendable where Text: Sendable {}
extension ToastNode: Equatable where Text: Equatable {}
extension ToastText: Sendable where Text: Sendable {}
extension ToastText: Equatable where Text: Equatable {}
