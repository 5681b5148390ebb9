import Foundation
import Yams

/// The optional configuration file of `--config` (`ALERTD_CONFIG`): a YAML mapping from setting
/// names — the flags without their dashes — to single values, e.g.
///
/// ```yaml
/// port: 9090
/// store: sqlite:/var/lib/alertd/alertd.sqlite
/// catalogs: /etc/alertd/catalogs
/// ```
///
/// JSON is YAML too. A setting left empty (`catalogs:`) or `~` counts as not given. Flags and
/// `ALERTD_*` variables win over the file.
struct ConfigFile {
    /// The file as given, for messages.
    let path: String
    /// Each setting's value as written, by setting name.
    let values: [String: String]

    /// Larger files are refused: a configuration is a few hundred bytes.
    static let sizeLimit = 1 << 20

    /// Reads and checks `path`. The file's good settings, and one line per problem (an
    /// unreadable file, bad YAML — a setting given twice included —, a document that is not a
    /// mapping, a value that is a list or a mapping).
    static func load(_ path: String) -> (file: ConfigFile, problems: [String]) {
        let empty = ConfigFile(path: path, values: [:])
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                return (empty, ["--config: \(path) is a folder, not a file"])
            }
            if let size = attributes[.size] as? Int, size > sizeLimit {
                return (empty, ["--config: \(path) is larger than \(sizeLimit) bytes"])
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            return (empty, ["--config: \(path) \(reason)"])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return (empty, ["--config: \(path) is not UTF-8 text"])
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            let reason = String(describing: error).split(separator: "\n").first.map(String.init) ?? "not YAML"
            return (empty, ["--config: \(path) is not valid YAML: \(reason)"])
        }
        guard let root else { return (empty, []) }  // an empty file sets nothing
        guard case .mapping(let mapping) = root else {
            return (empty, ["--config: \(path) must be a mapping of setting names to values (like `port: 9090`)"])
        }
        var values: [String: String] = [:]
        var problems: [String] = []
        for (key, value) in mapping {
            guard case .scalar(let name) = key else {
                problems.append("\(path)\(line(of: key)): a setting name must be a plain word like `port`")
                continue
            }
            switch value {
            case .scalar(let scalar):
                if value.null == nil { values[name.string] = scalar.string }
            case .mapping, .sequence, .alias:
                problems.append("\(path)\(line(of: key)): \(name.string) must be a single value, not a list or a mapping")
            }
        }
        return (ConfigFile(path: path, values: values), problems)
    }

    /// ":LINE" of a node, when Yams knows it.
    private static func line(of node: Node) -> String {
        node.mark.map { ":\($0.line)" } ?? ""
    }
}
