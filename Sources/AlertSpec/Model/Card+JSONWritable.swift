// The JSON writers of a rendered card flow, member for member as their `encode(to:)` and
// synthesized conformances (Card.swift). Only rendered flows (text as `String`) have one; a
// catalog's flows encode through `Encodable`.

extension CardFlow: JSONWritable, JSONObjectWritable where Text == String {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("start", start)
        try output.member("pages", pages)
        output.member("background", background.rawValue)
        try output.member("appearance", appearance)
    }
}

extension CardPage: JSONWritable, JSONObjectWritable where Text == String {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("id", id)
        output.member("title", title)
        try output.memberIfPresent("image", image)
        output.memberIfPresent("description", description)
        try output.memberIfPresent("actionButton", actionButton)
        try output.memberIfPresent("alternativeButton", alternativeButton)
        output.memberIfPresent("next", next)
        output.member("dismissable", dismissable)
    }
}

extension CardButton: JSONWritable, JSONObjectWritable where Text == String {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("title", title)
        try output.member("action", action)
        output.member("showsActivity", showsActivity)
    }
}

extension CardAppearance: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("tintColor", tintColor)
        output.member("actionButtonColor", actionButtonColor)
        output.member("actionButtonTitleColor", actionButtonTitleColor)
        output.member("alternativeButtonTitleColor", alternativeButtonTitleColor)
        output.member("titleColor", titleColor)
    }
}
