import AlertSpec
import Foundation
@testable import HTTPTestSupport

/// Checks JSON bodies against a schema of openapi.yaml with scripts/check_schema.py (Python's
/// `jsonschema`, Draft 2020-12): `ALERTD_TEST_PYTHON`, else the .build/venv `make test` makes.
struct SchemaChecker {
    struct Outcome: Decodable {
        var valid: Bool
        var errors: [Failure]

        struct Failure: Decodable {
            var pointer: String
            var message: String
        }

        var summary: String {
            errors.isEmpty ? "no error" : errors.map { "\($0.pointer.isEmpty ? "/" : $0.pointer): \($0.message)" }.joined(separator: "; ")
        }
    }

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The package root, found from this file: Tests/AlertdTestSupport/SchemaChecker.swift.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `ALERTD_TEST_PYTHON`, else the virtual environment `make test` makes.
    var python: URL {
        if let path = ProcessInfo.processInfo.environment["ALERTD_TEST_PYTHON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return root.appendingPathComponent(".build/venv/bin/python")
    }

    /// The outcome for each named spec (JSON bytes) against `#/components/schemas/<schema>`.
    func check(_ specs: [(String, [UInt8])], against schema: String, expectInvalid: Bool = false) async throws -> [String: Outcome] {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Unavailable(
                description: """
                    No Python for the schema check at \(python.path). Run `make test`: it makes .build/venv \
                    with jsonschema and pyyaml (or set ALERTD_TEST_PYTHON to a Python that has them).
                    """)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // {"name": <spec>, ...}, each spec byte for byte as encoded.
        var body: [UInt8] = Array("{".utf8)
        for (index, (name, spec)) in specs.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += try OrderedJSONEncoder().encode(name) + Array(":".utf8) + spec
        }
        body += Array("}".utf8)
        let input = folder.appendingPathComponent("specs.json")
        let report = folder.appendingPathComponent("report.json")
        try Data(body).write(to: input)

        let run = try await ChildRun.run(
            python,
            [
                root.appendingPathComponent("scripts/check_schema.py").path,
                root.appendingPathComponent("Sources/AlertServer/Resources/openapi.yaml").path,
                input.path, "--schema", schema, "--report", report.path,
            ] + (expectInvalid ? ["--expect-invalid"] : []))

        // 0: all as expected; 1: some not (the outcomes say which); anything else: no check ran.
        guard [0, 1].contains(run.status), let data = try? Data(contentsOf: report) else {
            throw Unavailable(description: "check_schema.py could not check against \(schema) (exit \(run.status)): \(run.output)")
        }
        return try JSONDecoder().decode([String: Outcome].self, from: data)
    }
}
