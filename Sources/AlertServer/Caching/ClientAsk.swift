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

    /// What `request` asks. 400 for a platform or device alertd does not know.
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
        return ClientAsk(locale: try request.query("locale"), acceptLanguage: request.http.headers["Accept-Language"], device: device)
    }
}
