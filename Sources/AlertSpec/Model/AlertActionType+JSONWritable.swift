// The JSON writers of a button's action and its parameters, member for member as their
// `encode(to:)` (AlertActionType.swift).

extension AlertActionType: JSONObjectWritable {
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        output.member("type", type)
        switch self {
        case .dismiss: break
        case .event(let name): output.member("name", name)
        case .openURL(let url): output.member("url", url)
        case .requestPermission(let permission): output.member("permission", permission.rawValue)
        case .next(let alert, let params):
            output.member("alert", alert)
            try output.member("params", ParameterList(params))
        }
    }
}

extension ParameterList: JSONObjectWritable {
    /// The parameters by name in sorted order.
    public func writeJSONMembers(to output: inout JSONOutput) throws {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            output.key(name)
            try value.writeJSON(to: &output)
        }
    }
}
