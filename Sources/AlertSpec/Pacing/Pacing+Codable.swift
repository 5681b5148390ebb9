extension Pacing: Codable {
    private enum CodingKeys: String, CodingKey { case limits, once, minGap, whenCapped }

    /// Members left out are no rule (`whenCapped`: `defer`). Input from people is read with
    /// `init(json:at:issues:)`, which reports every problem; this reads what was written.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            limits: try container.decodeIfPresent([Limit].self, forKey: .limits) ?? [],
            once: try container.decodeIfPresent(Once.self, forKey: .once),
            minGap: try container.decodeIfPresent(Gap.self, forKey: .minGap),
            whenCapped: try container.decodeIfPresent(WhenCapped.self, forKey: .whenCapped) ?? .defer)
    }

    /// Writes the rules it has (no empty `limits`) and always `whenCapped`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !limits.isEmpty { try container.encode(limits, forKey: .limits) }
        try container.encodeIfPresent(once, forKey: .once)
        try container.encodeIfPresent(minGap, forKey: .minGap)
        try container.encode(whenCapped, forKey: .whenCapped)
    }
}
