import AlertSpec
import Foundation
import Locking

/// A catalog backed by an `AlertTarget` enum. Building one checks every case's sample: it must
/// have a unique type, parameters that decode back into the case, and render a valid spec in
/// every locale. A catalog that fails the check never serves.
public struct EnumCatalog<Target: AlertTarget>: AlertCatalog {
    public let name: String
    public let entries: [AlertTypeInfo]
    private let localizer: any Localizer
    private let known: Set<String>
    private let validator = SpecValidator()

    public var sourceLanguage: String { localizer.sourceLanguage }
    public var locales: [String] { localizer.locales }
    public var variesByDevice: Bool { localizer.variesByDevice }

    /// Checks every sample in every locale, on every device when the translations vary by one;
    /// a translation problem of a key a sample uses is the catalog's problem, other keys'
    /// problems are not.
    public init(name: String, _: Target.Type, localizer: any Localizer) throws {
        var entries: [AlertTypeInfo] = []
        var problems: [String] = []
        let recorder = KeyRecorder(localizer)
        let devices = localizer.variesByDevice ? Device.allCases : [.other]
        for sample in Target.samples {
            do {
                let (type, example) = try Self.typeAndParameters(of: sample)
                guard !entries.contains(where: { $0.type == type }) else {
                    problems.append("\(type): more than one sample")
                    continue
                }
                problems += sample.pacing.problems.map { "\(type): pacing: \($0)" }
                let parameters = try ParameterDecoder.parameters(of: Target.self, type: type)
                let rebuilt = try ParameterDecoder.decode(Target.self, type: type, parameters: example)
                for locale in localizer.locales {
                    for device in devices {
                        do {
                            _ = try validator.validated(try rebuilt.draft(in: RenderContext(locale: locale, device: device), localizer: recorder))
                        } catch let invalid as InvalidSpec {
                            let place = device == .other ? locale : "\(locale), \(device.rawValue)"
                            problems += invalid.issues.map { "\(type) (\(place)): \($0)" }
                        }
                    }
                }
                entries.append(AlertTypeInfo(
                    type: type, kind: sample.kind, parameters: parameters, example: example, pacing: sample.pacing))
            } catch {
                problems.append("\(String(describing: sample)): \(error)")
            }
        }
        if entries.isEmpty, problems.isEmpty { problems.append("no samples: list every case in `samples`") }
        if let strings = localizer as? StringCatalogLocalizer {
            problems += strings.problems(of: recorder.keys.withLock { $0 }).map { "String Catalog: \($0)" }
        }
        guard problems.isEmpty else { throw CatalogError.invalid(catalog: name, problems: problems) }
        self.name = name
        self.entries = entries
        self.localizer = localizer
        self.known = Set(entries.map(\.type))
    }

    public func draft(type: String, parameters: [String: ParameterValue], in context: RenderContext) throws -> SpecDraft {
        try validator.validated(try target(type, parameters).draft(in: context, localizer: localizer))
    }

    public func dedupeKey(type: String, parameters: [String: ParameterValue]) -> String? {
        (try? target(type, parameters))?.dedupeKey
    }

    /// Decodes the case once for both (decoding is a third of rendering a draft).
    public func draftAndDedupeKey(
        type: String, parameters: [String: ParameterValue], in context: RenderContext
    ) throws -> (draft: SpecDraft, dedupeKey: String?) {
        let target = try target(type, parameters)
        return (try validator.validated(try target.draft(in: context, localizer: localizer)), target.dedupeKey)
    }

    /// The case of `type` with `parameters`.
    private func target(_ type: String, _ parameters: [String: ParameterValue]) throws -> Target {
        guard known.contains(type) else { throw CatalogError.unknownType(catalog: name, type: type) }
        return try ParameterDecoder.decode(Target.self, type: type, parameters: parameters)
    }

    /// A case's name and labelled associated values, read from its synthesized encoding.
    static func typeAndParameters(of sample: Target) throws -> (String, [String: ParameterValue]) {
        let json = try JSONEncoder().encode(sample)
        let object = try JSONDecoder().decode([String: [String: ParameterValue]].self, from: json)
        guard object.count == 1, let (type, parameters) = object.first else {
            throw CatalogError.invalid(catalog: "", problems: ["a sample did not encode as one case"])
        }
        return (type, parameters)
    }
}
