import ArgumentParser

/// The command line root: configuration only; each subcommand lives in its own file and the
/// logic in the libraries.
@main
struct Alertd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alertd",
        abstract: "Tells mobile apps which popup to show, in which language, and when.",
        discussion: """
            Every serve option has an environment twin (ALERTD_PORT for --port, …) and a line in the \
            --config file (port: 8080); the flag wins, then the variable, then the file.

            Examples:
              alertd serve --port 8080
              alertd serve --config /etc/alertd/alertd.yaml --print-config
              alertd render app/newMessages --param count=3 --param sender=Ana
              alertd validate catalogs/
              alertd catalog show app
              alertd token ana-phone --ttl 3600
              alertd healthcheck --url http://127.0.0.1:8080

            Run `alertd help COMMAND` for a command's options and examples.
            """,
        version: "0.1.0",
        subcommands: [
            Serve.self, Render.self, Validate.self, CatalogCommand.self, Token.self, Healthcheck.self, ConfigReference.self,
        ],
        defaultSubcommand: Serve.self
    )
}
