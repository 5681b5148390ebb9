import AlertCatalogs
import AlertServer
import AlertSpec
import ArgumentParser
import Foundation

/// `alertd render CATALOG/TYPE`: prints one rendered spec, as the HTTP API would serve it.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the rendered spec of one alert.",
        discussion: "Example: alertd render app/newMessages --locale en --param count=3 --param sender=Ana")

    @Argument(help: "The alert, as catalog/type (e.g. app/questionExit).")
    var alert: String

    @Option(help: "Locale to render, or a pseudo-locale: en-XA or ar-XB (default: the catalog's source language).")
    var locale: String?

    @Option(help: "Device the text is for, as String Catalogs vary it: iphone, ipad, ipod, mac, watch, tv, vision or other (default: other).")
    var device: String?

    @Option(name: .customLong("param"), help: "A parameter as name=value; repeat for several.")
    var parameters: [String] = []

    @OptionGroup var catalogFolder: CatalogFolderOption

    func run() throws {
        guard let id = AlertID(alert) else { throw ValidationError("expected catalog/type, got \"\(alert)\"") }
        // As the HTTP API: a private-use region that names no pseudo-locale is a mistake, not a language.
        if let locale, PseudoLocale(tag: locale) == nil, PseudoLocale.hasPrivateUseRegion(locale) {
            throw ValidationError("--locale \"\(locale)\" names no pseudo-locale; use \(PseudoLocale.tags.joined(separator: " or "))")
        }
        let device = try device.map { name in
            guard let device = Device(query: name) else {
                throw ValidationError("--device takes one of \(Device.queryNames.joined(separator: ", ")), got \"\(name)\"")
            }
            return device
        } ?? .other
        var values: [String: ParameterValue] = [:]
        for parameter in parameters {
            guard let equals = parameter.firstIndex(of: "=") else {
                throw ValidationError("--param takes name=value, got \"\(parameter)\"")
            }
            values[String(parameter[..<equals])] = .string(String(parameter[parameter.index(after: equals)...]))
        }
        do {
            let spec = try catalogFolder.registry(command: "alertd render").render(
                catalog: id.catalog, type: id.type, parameters: values, locale: locale, device: device)
            FileHandle.standardOutput.write(Data(try OrderedJSONEncoder().encode(spec) + [0x0A]))
        } catch let error as ParameterError {
            printError("alertd render: \(error)")
            throw ExitCode(1)
        } catch let error as CatalogError {
            printError("alertd render: \(error)")
            throw ExitCode(1)
        } catch let error as InvalidSpec {
            for issue in error.issues { printError("alertd render: \(alert): \(issue)") }
            throw ExitCode(1)
        }
    }
}
