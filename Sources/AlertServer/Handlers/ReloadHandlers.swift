import MicroHTTP

/// `POST /v1/catalogs/reload` (admin): loads the catalog folder anew and swaps the catalogs, or
/// keeps them. 200 with a summary; 409 `no-catalog-folder` when the server reads none; 422
/// `invalid-catalogs` with every problem of the files, the catalogs served before kept.
struct ReloadHandlers {
    let catalogs: CurrentCatalogs
    let access: Access

    func register(in router: inout Router) {
        let (catalogs, access) = (catalogs, access)
        router.addAsync("POST", "/v1/catalogs/reload") { request in
            try access.requireAdmin(request)
            _ = try JSONBody.read(request, members: [])  // none, or `{}`: the call takes no options
            switch await catalogs.reloadLater(via: "http") {
            case .success(let summary): return uncached(summary)
            case .failure(let error): throw error.apiError
            }
        }
    }
}
