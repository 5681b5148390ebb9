import AlertCatalogs
import AlertSpec
import ArgumentParser
import Foundation

/// `alertd catalog list | show NAME | strings`: what the catalogs hold (`list` and `show` read
/// `--catalogs` as `serve` does; `strings` reports the built-in String Catalogs).
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List the catalogs, their alerts and their translations.",
        subcommands: [List.self, Show.self, Strings.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the built-in catalogs and those of --catalogs.")

        @OptionGroup var catalogFolder: CatalogFolderOption

        func run() throws {
            for catalog in try catalogFolder.registry(command: "alertd catalog list").catalogs {
                say("\(catalog.name)\t\(catalog.entries.count) alerts\t\(catalog.locales.joined(separator: " "))")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a catalog's alerts with their kinds and parameters.", discussion: "Example: alertd catalog show app")

        @Argument(help: "The catalog's name.")
        var name: String

        @OptionGroup var catalogFolder: CatalogFolderOption

        func run() throws {
            guard let catalog = try catalogFolder.registry(command: "alertd catalog show")[name] else {
                printError("alertd catalog show: there is no catalog \"\(name)\"")
                throw ExitCode(1)
            }
            for entry in catalog.entries {
                let parameters = entry.parameters.map { "\($0.name): \($0.type.rawValue)\($0.required ? "" : "?")" }
                say("\(entry.type)\t\(entry.kind.rawValue)\t\(parameters.joined(separator: ", "))")
            }
        }
    }

    struct Strings: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the keys of the built-in catalogs and their state in each locale.",
            discussion: "With --missing, only the gaps, one per line, and exit status 1 if there are any.")

        @Flag(help: "List only keys missing or not translated in a locale.")
        var missing = false

        func run() throws {
            let reports = try CatalogStrings.builtIn()
            if missing {
                let gaps = reports.flatMap(\.gaps)
                gaps.forEach { say($0) }
                say("\(gaps.count) gaps")
                if !gaps.isEmpty { throw ExitCode(1) }
                return
            }
            for report in reports {
                say("\(report.catalog): \(report.states.count) keys; locales \(report.locales.joined(separator: " "))")
                for key in report.states.keys.sorted() {
                    let cells = report.locales.map { locale in
                        report.states[key]?[locale] == "translated" ? locale : "\(locale)(\(report.states[key]?[locale] ?? "missing"))"
                    }
                    say("  \(key)\t\(cells.joined(separator: " "))")
                }
            }
        }
    }
}
