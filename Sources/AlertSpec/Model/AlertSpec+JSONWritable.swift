// The JSON writers of a spec's envelope and of the kinds defined beside it, member for member
// as their `encode(to:)` (in AlertSpec.swift, SpecDraft.swift) and synthesized conformances.

extension AlertSpec: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("schemaVersion", schemaVersion)
        output.member("id", id)
        output.member("kind", kind.rawValue)
        output.member("lane", lane.rawValue)
        output.member("locale", locale)
        output.member("direction", direction.rawValue)
        output.member("priority", priority)
        try body.writeJSONMembers(to: &output)
    }
}

extension SpecDraft: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("kind", kind.rawValue)
        output.member("priority", priority)
        try body.writeJSONMembers(to: &output)
    }
}

extension AlertSpec.Body {
    /// Writes the kind's fields into the object of the envelope, as `encodeFields(to:)` does.
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        switch self {
        case .alert(let dialog): try dialog.writeJSONMembers(to: &output)
        case .sheet(let sheet): try sheet.writeJSONMembers(to: &output)
        case .hud(let hud): try hud.writeJSONMembers(to: &output)
        case .toast(let toast): try toast.writeJSONMembers(to: &output)
        case .card(let card): try card.writeJSONMembers(to: &output)
        }
    }
}

extension AlertSpec.Sheet: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.memberIfPresent("title", title)
        output.memberIfPresent("message", message)
        try output.member("options", options)
        try output.member("cancel", cancel)
    }
}

extension AlertSpec.HUD: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("state", state.rawValue)
        output.memberIfPresent("text", text)
        try output.memberIfPresent("progress", progress)
        try output.member("autoHide", autoHide)
    }
}

extension AlertSpec.Action: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("id", id)
        output.member("label", label)
        output.member("role", role.rawValue)
        try output.member("action", action)
        try output.member("appearance", appearance)
    }
}

extension ActionAppearance: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        try output.member("font", font)
        output.member("color", color)
        output.member("backgroundColor", backgroundColor)
        try output.member("borderWidth", borderWidth)
        output.member("borderColor", borderColor)
        try output.member("cornerRadius", cornerRadius)
    }
}
