import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The settings' declarations (Sources/alertd/Setting.swift), the built alertd and
// docs/configuration.md agree: the document is what `alertd config-reference` prints, and every
// setting it lists is one that `alertd serve` takes by flag, variable and --config file.

@Suite("alertd configuration reference: docs/configuration.md, the declarations and serve agree")
struct ConfigReferenceTests {
    /// One row of the reference's table.
    struct Row {
        let flag: String
        let environment: String
        /// The `--config` file key; nil for `--config` itself.
        let key: String?
        /// The default when it is a literal value (written as code), not a description.
        let literalDefault: String?
    }

    /// docs/configuration.md of this checkout.
    private static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/configuration.md")

    /// What `alertd config-reference` prints, and its table's rows.
    private static func reference() throws -> (text: String, rows: [Row]) {
        let result = try AlertdProcess.run(["config-reference"])
        guard result.exited, result.status == 0 else {
            throw ReferenceError("alertd config-reference failed (\(result.status)): \(result.standardError)")
        }
        let rows = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("| `--") }.map { line in
            let cells = line.dropFirst(2).components(separatedBy: " | ")
            return Row(flag: code(cells[0]) ?? "", environment: code(cells[1]) ?? "", key: code(cells[2]), literalDefault: code(cells[3]))
        }
        return (result.standardOutput, rows)
    }

    /// The text of a cell that is one code span, else nil.
    private static func code(_ cell: String) -> String? {
        guard cell.count >= 2, cell.hasPrefix("`"), cell.hasSuffix("`") else { return nil }
        let inner = cell.dropFirst().dropLast()
        return inner.contains("`") ? nil : String(inner)
    }

    /// A literal default as `--print-config` writes it: numbers as they are, text single-quoted.
    private static func printed(_ literal: String) -> String {
        Int(literal) != nil ? literal : "'" + literal.replacing("'", with: "''") + "'"
    }

    @Test("docs/configuration.md is exactly what alertd config-reference prints")
    func documentIsCurrent() throws {
        let generated = try Self.reference().text
        let committed = try String(contentsOf: Self.document, encoding: .utf8)
        let lines = (
            generated.split(separator: "\n", omittingEmptySubsequences: false),
            committed.split(separator: "\n", omittingEmptySubsequences: false)
        )
        let firstDifference =
            zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }
            .map { "line \($0.offset + 1): generated \"\($0.element.0)\", file \"\($0.element.1)\"" } ?? "lengths differ"
        #expect(
            Data(generated.utf8) == Data(committed.utf8),
            "docs/configuration.md is out of date with the settings' declarations: run `make docs` and commit it (\(firstDifference))")
    }

    @Test("every declared setting is shown by --print-config with its declared default, and read from a --config file")
    func everySettingInFile() throws {
        let rows = try Self.reference().rows
        let keys = rows.compactMap(\.key)
        // A table that failed to parse must not pass by checking nothing
        #expect(rows.count >= 26 && rows.filter { $0.key == nil }.map(\.flag) == ["--config"])

        // Given nothing at all (an empty ALERTD_DATA_DIR counts as not given), every setting is
        // printed, each literal default as declared
        let plain = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_DATA_DIR": ""])
        #expect(plain.exited && plain.status == 0, "stderr: \(plain.standardError)")
        let defaults = ConfigFileTests.settings(in: plain.standardOutput)
        #expect(defaults.keys.sorted() == keys.sorted())
        for row in rows {
            guard let key = row.key, let literal = row.literalDefault else { continue }
            #expect(defaults[key]?.source == "default" && defaults[key]?.value == Self.printed(literal), "\(key)")
        }
        // "one per core", which the reference describes rather than gives
        #expect(defaults["threads"]?.value == String(ProcessInfo.processInfo.activeProcessorCount))

        // When a file gives every setting (the defaults printed, a value where there is none)
        var written: [String: String] = [:]
        for key in keys {
            let value = defaults[key]?.value ?? "~"
            written[key] = value == "~" || value == "(hidden)" ? "'\(key)-from-the-file'" : value
        }
        let file = try ConfigFileTests.configFile(keys.map { "\($0): \(written[$0]!)" }.joined(separator: "\n") + "\n")
        defer { ConfigFileTests.remove(file) }
        let result = try AlertdProcess.run(
            ["serve", "--config", file.path, "--print-config"], environment: ["ALERTD_DATA_DIR": ""])

        // Then each is taken from the file, as written (but the secrets, which stay hidden)
        #expect(result.exited && result.status == 0, "stderr: \(result.standardError)")
        let fromFile = ConfigFileTests.settings(in: result.standardOutput)
        for key in keys {
            #expect(fromFile[key]?.source == file.path, "\(key): \(String(describing: fromFile[key]))")
            let hidden = fromFile[key]?.value == "(hidden)"
            #expect(hidden || fromFile[key]?.value == written[key], "\(key): \(String(describing: fromFile[key]))")
        }
    }

    @Test("alertd serve --help names every declared setting's flag and variable, and no variable undeclared")
    func helpNamesEverySetting() throws {
        let rows = try Self.reference().rows
        let help = try AlertdProcess.run(["help", "serve"])
        #expect(help.exited && help.status == 0, "stderr: \(help.standardError)")
        for row in rows {
            #expect(help.standardOutput.contains(row.flag + " <"), "\(row.flag) missing from serve --help")
            #expect(help.standardOutput.contains(row.environment), "\(row.environment) missing from serve --help")
        }
        let declared = Set(rows.map(\.environment))
        let mentioned = Set(help.standardOutput.matches(of: #/ALERTD_[A-Z_]+/#).map { String($0.output) })
        #expect(mentioned.subtracting(declared).isEmpty, "undeclared in the reference: \(mentioned.subtracting(declared).sorted())")
    }
}

private struct ReferenceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
