import AlertSpec
import Foundation
import Yams

/// Reading a catalog or spec file: JSON for `.json`, YAML for `.yaml` and `.yml`, and the
/// catalog name a file gives (its name without the extension).
enum CatalogDocument {
    /// The extensions of catalog files, lower case.
    static let extensions: Set<String> = ["json", "yaml", "yml"]

    /// YAML 1.2's core schema: `yes`, `no`, `on` and `off` stay strings (a button labelled No is
    /// not `false`), and dates stay strings.
    private static let resolver = Resolver.default
        .removing(.timestamp)
        .replacing(try! Resolver.Rule(.bool, "^(?:true|True|TRUE|false|False|FALSE)$"))

    /// The name `[A-Za-z0-9_-]+` a catalog file gives, or nil.
    static func catalogName(of url: URL) -> String? {
        let name = url.deletingPathExtension().lastPathComponent
        return isValidName(name) ? name : nil
    }

    /// Catalog names: `[A-Za-z0-9_-]+`, safe in ids and URL paths.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { isWordCharacter($0) }
    }

    /// Alert types: as catalog names, and dots inside (`rate.app`, common in Critical Moments
    /// configs); the first character is a letter or digit, so `.` and `..` never make a path.
    static func isValidType(_ type: String) -> Bool {
        guard let first = type.unicodeScalars.first, isWordCharacter(first), first != "_", first != "-" else { return false }
        return type.unicodeScalars.allSatisfy { isWordCharacter($0) || $0 == "." }
    }

    private static func isWordCharacter(_ c: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(c) || ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
    }

    /// Whether a file is one the loader reads: a known extension and not hidden.
    static func isCatalogFile(_ url: URL) -> Bool {
        !url.lastPathComponent.hasPrefix(".") && extensions.contains(url.pathExtension.lowercased())
    }

    /// The parsed file, or nil with the reason in `problems`.
    static func read(_ url: URL, into problems: inout ProblemList) -> JSONTree? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            problems.error(CatalogProblem.none, CatalogProblem.none, "unreadable-file", "The file cannot be read.")
            return nil
        }
        if url.pathExtension.lowercased() == "json" { return json(data, into: &problems) }
        return yaml(data, into: &problems)
    }

    /// The file read by `JSON(parsing:)`, strictly (a member name given twice is an error, as
    /// in request bodies), but past a UTF-8 byte order mark, which editors write and RFC 8259
    /// lets a reader ignore.
    private static func json(_ data: Data, into problems: inout ProblemList) -> JSONTree? {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        do {
            return try JSON(parsing: bytes)
        } catch {
            problems.error(CatalogProblem.none, CatalogProblem.none, "malformed-file", "The file is not valid JSON (\(error)).")
            return nil
        }
    }

    private static func yaml(_ data: Data, into problems: inout ProblemList) -> JSONTree? {
        guard let text = String(data: data, encoding: .utf8) else {
            problems.error(CatalogProblem.none, CatalogProblem.none, "malformed-file", "The file is not UTF-8 text.")
            return nil
        }
        let node: Yams.Node?
        do {
            node = try Yams.compose(yaml: text, resolver)
        } catch {
            let detail = "\(error)".split(separator: "\n").first.map { ": \($0)" } ?? ""
            problems.error(CatalogProblem.none, CatalogProblem.none, "malformed-file", "The file is not valid YAML\(detail).")
            return nil
        }
        var problem: (pointer: String, message: String)?
        if let node { problem = unreadable(node) }
        if let problem {
            problems.error(CatalogProblem.none, problem.pointer, "invalid-value", problem.message)
            return nil
        }
        guard let tree = JSONTree(yaml: node?.any, problem: &problem) else {
            problems.error(CatalogProblem.none, problem?.pointer ?? "", "invalid-value", problem?.message ?? "Unreadable YAML.")
            return nil
        }
        return tree
    }

    /// Values a YAML file may hold, counting each time an alias repeats one: ten lines of
    /// anchors and aliases can stand for a billion values.
    static let maxYAMLValues = 100_000

    /// What Yams must not construct from `node`: a member name that is a list or a mapping
    /// (`? [a]: b`; its constructor traps on it), or more than `maxYAMLValues` values.
    private static func unreadable(_ node: Yams.Node) -> (pointer: String, message: String)? {
        var budget = maxYAMLValues
        func check(_ node: Yams.Node, at pointer: String) -> (pointer: String, message: String)? {
            budget -= 1
            guard budget >= 0 else {
                return ("", "The file holds more than \(maxYAMLValues) values, counting each repeat of an alias.")
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    guard let name = key.string else { return (pointer, "A member name must be text, not a list or a mapping.") }
                    if let found = check(value, at: pointer + "/" + JSONPointer.escape(name)) { return found }
                }
            case .sequence(let items):
                for (index, item) in items.enumerated() {
                    if let found = check(item, at: "\(pointer)/\(index)") { return found }
                }
            case .alias:
                // The parser resolves aliases; the constructor would trap on one left.
                return (pointer, "An alias that was not resolved.")
            case .scalar:
                break
            }
            return nil
        }
        return check(node, at: "")
    }
}
