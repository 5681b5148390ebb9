import AlertCatalogs
import Crypto
import Foundation

/// The folder of catalog files the server reads (`alertd serve --catalogs DIR`), loaded anew on
/// every reload, and what its files held when they were read.
///
/// ```swift
/// let source = CatalogSource(folder: URL(fileURLWithPath: "catalogs"))
/// let loaded = try source.load(alongside: try CatalogRegistry.builtInCatalogs()).get()
/// loaded.registry["promo"]   // the catalog of catalogs/promo.yaml
/// ```
public struct CatalogSource: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// A digest of a catalog's files: its catalog file and every file beside it named after the
    /// catalog (`promo.xcstrings` beside `promo.yaml`).
    struct Fingerprint: Equatable, Sendable {
        var digest: [UInt8]
        /// Whether the catalog is known to be made of exactly these bytes: they were the same
        /// just before it was loaded and just after. Only then may its renderings be kept.
        var confirmed: Bool

        static let unknown = Fingerprint(digest: [], confirmed: false)
        var unconfirmed: Fingerprint { Fingerprint(digest: digest, confirmed: false) }
    }

    /// A successful load: the registry to serve, the file catalogs in it, their fingerprints.
    struct Loaded {
        var registry: CatalogRegistry
        var files: [FileCatalog]
        var sources: [String: Fingerprint]
    }

    /// The folder's catalogs checked with `builtIn` and joined with them, as `alertd serve`
    /// loads them at start-up; every problem otherwise.
    func load(alongside builtIn: [any AlertCatalog]) -> Result<Loaded, CatalogFileError> {
        let before = fingerprints()
        let files: [FileCatalog]
        do {
            files = try CatalogFolder.load(folder, alongside: builtIn)
        } catch let error as CatalogFileError {
            return .failure(error)
        } catch {
            return .failure(problem("unreadable-folder", "\(error)"))
        }
        let registry: CatalogRegistry
        do {
            registry = try CatalogRegistry(builtIn + files)
        } catch {
            // The folder's own checks find these first; the registry's are the last word.
            return .failure(problem("invalid-catalog", "\(error)"))
        }
        let after = fingerprints()
        var sources: [String: Fingerprint] = [:]
        for catalog in files {
            let read = after[catalog.name] ?? .unknown
            sources[catalog.name] = Fingerprint(digest: read.digest, confirmed: !read.digest.isEmpty && before[catalog.name] == read)
        }
        return .success(Loaded(registry: registry, files: files, sources: sources))
    }

    /// A problem with the folder as a whole.
    private func problem(_ code: String, _ message: String) -> CatalogFileError {
        CatalogFileError(problems: [CatalogProblem(file: folder.relativePath, code: code, message: message)])
    }

    /// The digest of each catalog name's files in the folder, as they are now (unconfirmed).
    func fingerprints() -> [String: Fingerprint] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [:] }
        var hashers: [String: SHA256] = [:]
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init),
                let bytes = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            else { continue }
            // The name and length first: two files' bytes never run into each other.
            let length = withUnsafeBytes(of: UInt64(bytes.count).littleEndian, Array.init)
            hashers[stem, default: SHA256()].update(data: Array(name.utf8) + [0] + length)
            hashers[stem]?.update(data: bytes)
        }
        return hashers.mapValues { Fingerprint(digest: Array($0.finalize()), confirmed: false) }
    }
}
