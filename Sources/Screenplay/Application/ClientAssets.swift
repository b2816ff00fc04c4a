internal import Foundation
internal import HTTPServer

/// The client Screenplay serves itself: its script, the shared worker and its stylesheet, read once from the
/// module's resources and served at a versioned path (`/screenplay/2-1f0c…/screenplay.js`) with long caching and an
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

    /// Loads the assets from the module's resources.
    init() throws {
        let names = [
            ("screenplay.js", "text/javascript; charset=utf-8"),
            ("screenplay-worker.js", "text/javascript; charset=utf-8"), ("screenplay.css", "text/css; charset=utf-8"),
        ]
        var assets: [String: Asset] = [:]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (name, type) in names {
            guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Client"),
                let data = FileManager.default.contents(atPath: url.path)
            else {
                throw ConfigurationError(
                    "Screenplay's client (\(name)) is missing from its resources (\(Bundle.module.bundlePath)); "
                        + "ship the Screenplay_Screenplay.resources folder next to the executable.")
            }
            let bytes = [UInt8](data)
            // FNV-1a over every file: a name for this set of contents, not a security measure.
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            assets[name] = Asset(bytes: bytes, contentType: type)
        }
        self.assets = assets
        version = "\(Self.wireVersion)-" + String(hash, radix: 16)
    }

    /// The path of `name` for this version.
    func path(_ name: String) -> String { Self.prefix + version + "/" + name }

    /// What the page shell puts first in `<head>`: the framework's stylesheet and script.
    var headMarkup: String { Self.headMarkup(version: version) }

    /// The page shell's `<head>` markup for the client of `version` (`ScreenHarness` renders with version `test`).
    package static func headMarkup(version: String) -> String {
        let path = { (name: String) in prefix + version + "/" + name }
        return "<link rel=\"stylesheet\" href=\"\(path("screenplay.css"))\">"
            + "<script src=\"\(path("screenplay.js"))\" defer></script>"
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
