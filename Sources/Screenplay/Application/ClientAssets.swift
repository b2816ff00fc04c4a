internal import FoundationEssentials
internal import HTTPServer

/// The client Screenplay serves itself: its ES modules (the page's entry, the shared worker's, and the modules they
/// import) and its stylesheet, read once from the module's resources and served at a versioned path
/// (`/screenplay/2-1f0c…/screenplay.js`, so a module's relative imports stay in its version) with long caching and an
/// ETag. The page shell links them by itself; the version names the wire protocol and the files' contents, so a
/// deploy that changes either is a new URL, and a page of another version reloads once (see the Forms and wire
/// protocol articles).
package struct ClientAssets: Sendable {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// The wire protocol the client speaks.
    static let wireVersion = 2
    /// Where the assets are served from.
    static let prefix = "/screenplay/"

    let version: String
    let assets: [String: Asset]

    /// The client's files as the build embeds them in the module's code (`Package.swift`: `.embedInCode("Client")`),
    /// by name: an executable needs no resources folder beside it. A file added to `Client/` is served once it is
    /// named here (`ClientAssetsTests` checks that every file of the folder is).
    static let files: [(name: String, bytes: [UInt8])] = [
        ("actions.js", PackageResources.actions_js),
        ("announce.js", PackageResources.announce_js),
        ("collection.js", PackageResources.collection_js),
        ("connection.js", PackageResources.connection_js),
        ("controls.js", PackageResources.controls_js),
        ("development.js", PackageResources.development_js),
        ("dialog.js", PackageResources.dialog_js),
        ("fields.js", PackageResources.fields_js),
        ("links.js", PackageResources.links_js),
        ("navigation.js", PackageResources.navigation_js),
        ("patch.js", PackageResources.patch_js),
        ("screenplay-worker.js", PackageResources.screenplay_worker_js),
        ("screenplay.css", PackageResources.screenplay_css),
        ("screenplay.js", PackageResources.screenplay_js),
        ("snapshot.js", PackageResources.snapshot_js),
        ("stream.js", PackageResources.stream_js),
        ("subscription.js", PackageResources.subscription_js),
        ("table.js", PackageResources.table_js),
        ("tabs.js", PackageResources.tabs_js),
        ("upload.js", PackageResources.upload_js),
        ("wire.js", PackageResources.wire_js),
    ]

    /// Loads the assets from ``files``: the client's ES modules (among them the page's entry `screenplay.js` and the
    /// worker's `screenplay-worker.js`) and its stylesheet.
    init() throws {
        var assets: [String: Asset] = [:]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Sorted, so that the version names the same contents whatever order the list is written in.
        for (name, bytes) in Self.files.sorted(by: { $0.name < $1.name }) {
            guard let type = Self.contentType(of: name) else { continue }
            // FNV-1a over every file and its name: a name for this set of contents, not a security measure.
            for byte in name.utf8 + [0] + bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            assets[name] = Asset(bytes: bytes, contentType: type)
        }
        for required in ["screenplay.js", "screenplay-worker.js", "wire.js", "screenplay.css"]
        where assets[required] == nil {
            throw ConfigurationError("Screenplay's client (\(required)) is missing from ClientAssets.files.")
        }
        self.assets = assets
        version = "\(Self.wireVersion)-" + String(hash, radix: 16)
    }

    /// The content type a client file is served with, or nil for a file that is not served (a test, a note).
    static func contentType(of name: String) -> String? {
        if name.hasSuffix(".test.js") { return nil }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return nil
    }

    /// The path of `name` for this version.
    func path(_ name: String) -> String { Self.prefix + version + "/" + name }

    /// What the page shell puts first in `<head>`: the framework's stylesheet and the client's entry module (a
    /// module script runs once the document is parsed, as a deferred one does; it imports the others beside it).
    var headMarkup: String { Self.headMarkup(version: version) }

    /// The page shell's `<head>` markup for the client of `version` (`ScreenHarness` renders with version `test`).
    package static func headMarkup(version: String) -> String {
        let path = { (name: String) in prefix + version + "/" + name }
        return "<link rel=\"stylesheet\" href=\"\(path("screenplay.css"))\">"
            + "<script type=\"module\" src=\"\(path("screenplay.js"))\"></script>"
    }

    /// Answers `GET /screenplay/{version}/{file}`: the current file, cached for a year under this version, revalidated
    /// under another (a page from before a deploy gets the new client, which then reloads it).
    func response(to request: Request) -> Response {
        guard let name = request.parameters["file"], let asset = assets[name] else {
            return .error(.notFound, message: "Screenplay's client has no such file.")
        }
        let etag = "\"" + version + "\""
        var response: Response
        if request.headers["if-none-match"] == etag {
            response = Response(status: .notModified)
        } else {
            response = Response(status: .ok, body: asset.bytes)
            response.headers["Content-Type"] = asset.contentType
        }
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] =
            request.parameters["version"] == version ? "public, max-age=31536000, immutable" : "no-cache"
        return response
    }
}
