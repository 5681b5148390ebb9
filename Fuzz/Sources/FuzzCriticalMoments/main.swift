import AlertCatalogs
import Foundation

// A catalog file dropped into the --catalogs folder: the input is written as `fuzz.json` and as
// `fuzz.yaml` and loaded the way `alertd serve` loads the folder (CatalogFolder: parse, tell a
// Critical Moments config from alertd's own format, build each alert's template, render and
// validate it, check its `next` actions against the built-in catalogs).
//
// Every file must be loaded or refused with CatalogFileError; any other error or a trap is a bug.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    for file in FuzzFolder.files {
        do {
            try FuzzFolder.save(start, count, to: file)
            _ = try CatalogFolder.load(files: [file], alongside: FuzzFolder.builtIn)
        } catch is CatalogFileError {
            // Refused, with its problems: what most inputs get.
        } catch {
            fatalError("\(file.lastPathComponent): not a CatalogFileError: \(error)")
        }
    }
    return 0
}

enum FuzzFolder {
    static let builtIn: [any AlertCatalog] = {
        do { return try CatalogRegistry.builtInCatalogs() } catch { fatalError("built-in catalogs: \(error)") }
    }()

    /// A folder of this process's own, removed at exit.
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-fuzz-catalog-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory
                .appendingPathComponent("alertd-fuzz-catalog-\(getpid())"))
        }
        return url
    }()

    static let files = [folder.appendingPathComponent("fuzz.json"), folder.appendingPathComponent("fuzz.yaml")]

    /// Writes the input as a new file with plain POSIX calls: `Data.write(to:)` syncs every
    /// file to disk, and on ext4 so does closing a file that was truncated, each making a run
    /// ten times slower.
    static func save(_ start: UnsafeRawPointer, _ count: Int, to file: URL) throws {
        unlink(file.path)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        guard write(descriptor, start, count) == count else { throw CocoaError(.fileWriteUnknown) }
    }
}
