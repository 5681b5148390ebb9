import AlertCatalogs
import AlertSpec
import MicroHTTP

/// What a client asked a rendering to be for: `?locale=`, `Accept-Language` and the device
/// (`?device=`, else derived from `?platform=`). Negotiated against a catalog into a
/// `RenderContext`.
struct ClientAsk: Hashable, Sendable {
    var locale: String?
    var acceptLanguage: String?
    var device: Device = .other

    /// What `request` asks. 400 for a platform or device alertd does not know, and for a locale
    /// with a private-use region (`XA` to `XZ`) that is not one of its pseudo-locales.
    static func of(_ request: Request) throws -> ClientAsk {
        let platform = try request.query("platform")
        if let platform, !CatalogHandlers.isPlatform(platform) {
            throw APIError.badRequest("The platform \"\(platform)\" is unknown; use ios or android.")
        }
        var device = Device(platform: platform)
        if let named = try request.query("device") {
            guard let known = Device(query: named) else {
                throw APIError.badRequest(
                    "The device \"\(named)\" is unknown; use one of \(Device.queryNames.joined(separator: ", ")).")
            }
            device = known
        }
        let locale = try request.query("locale")
        if let locale, PseudoLocale(tag: locale) == nil, PseudoLocale.hasPrivateUseRegion(locale) {
            throw APIError.badRequest(
                "The locale \"\(locale)\" names no pseudo-locale alertd has; use \(PseudoLocale.tags.joined(separator: " or ")).")
        }
        return ClientAsk(locale: locale, acceptLanguage: request.http.headers["Accept-Language"], device: device)
    }
}
