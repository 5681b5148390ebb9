// The JSON writers of a rendered toast, member for member as their `encode(to:)`
// (Toast+Codable.swift, Toast.swift) and synthesized conformances. Only rendered toasts (text
// as `String`) have one; a catalog's toasts encode through `Encodable`.

extension ToastContent: JSONWritable, JSONObjectWritable where Text == String {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("content", content)
        try output.member("appearance", appearance)
        try output.member("animation", animation)
    }
}

/// `{"type": "text" | "image" | "spacer" | "beside" | "stacked", …}`.
extension ToastNode: JSONWritable, JSONObjectWritable where Text == String {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        switch self {
        case .text(let text):
            output.member("type", "text")
            try text.writeJSONMembers(to: &output)
        case .image(let image, let size):
            output.member("type", "image")
            try output.member("image", image)
            try output.member("size", size)
        case .spacer(let size):
            output.member("type", "spacer")
            try output.member("size", size)
        case .beside(let items):
            output.member("type", "beside")
            try output.member("items", items)
        case .stacked(let items):
            output.member("type", "stacked")
            try output.member("items", items)
        }
    }
}

extension ToastText: JSONWritable, JSONObjectWritable where Text == String {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("text", text)
        try output.member("font", font)
        output.member("color", color)
        output.member("alignment", alignment.rawValue)
        output.memberIfPresent("backgroundColor", backgroundColor)
        try output.member("size", size)
    }
}

extension GridSize: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("width", width)
        try output.member("height", height)
    }
}

extension ToastAppearance: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("position", position.rawValue)
        try output.member("offset", offset)
        try output.member("size", size)
        try output.member("style", style)
    }
}

extension ToastSize: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        switch self {
        case .absolute(let width, let height):
            try output.member("width", width)
            try output.member("height", height)
        case .relative(let x, let y):
            try output.member("xRatio", x)
            try output.member("yRatio", y)
        }
    }
}

extension ToastStyle: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("backgroundColor", backgroundColor)
        try output.member("cornerRadius", cornerRadius)
    }
}

extension ToastAnimation: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("transition", transition.rawValue)
        try output.member("duration", duration)
        try output.member("show", show)
        try output.member("hide", hide)
    }
}

extension AnimationStep: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("duration", duration)
        try output.member("delay", delay)
        output.member("curve", curve.rawValue)
        try output.member("from", from)
        try output.member("to", to)
    }
}

extension AnimationState: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("alpha", alpha)
        try output.member("scale", scale)
        try output.member("rotation", rotation)
        try output.member("translation", translation)
    }
}
