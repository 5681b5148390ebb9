// The JSON writers of an alert dialog and its parts, member for member as their synthesized
// `Encodable` conformances (AlertSpec+Dialog.swift): declaration order, nil optionals left out.

extension AlertSpec.Dialog: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("style", style.rawValue)
        output.memberIfPresent("title", title)
        output.memberIfPresent("message", message)
        try output.memberIfPresent("image", image)
        try output.memberIfPresent("input", input)
        try output.member("actions", actions)
        try output.member("presentation", presentation)
        try output.member("appearance", appearance)
    }
}

extension AlertInput: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.memberIfPresent("placeholder", placeholder)
        output.member("keyboard", keyboard.rawValue)
        output.member("secure", secure)
    }
}

extension Presentation: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("maskColor", maskColor)
        output.member("dismissOnTapOutside", dismissOnTapOutside)
        output.member("animation", animation.rawValue)
        try output.member("animationDuration", animationDuration)
        output.member("headerLayout", headerLayout.rawValue)
        output.member("actionsLayout", actionsLayout.rawValue)
        try output.member("spacing", spacing)
    }
}

extension Presentation.Spacing: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("contentInset", contentInset)
        try output.member("titleToMessage", titleToMessage)
        try output.member("messageToActions", messageToActions)
        try output.member("betweenActions", betweenActions)
    }
}

extension DialogAppearance: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("title", title)
        try output.member("message", message)
        output.member("backgroundColor", backgroundColor)
        try output.member("borderWidth", borderWidth)
        output.member("borderColor", borderColor)
        try output.member("cornerRadius", cornerRadius)
        try output.member("offset", offset)
    }
}
