import HTTPServer
import Screenplay

/// `GET /posters/{key}`: an uploaded poster's bytes, exactly as they arrived. A key names one version for good, so the
/// answer is cached for a year as immutable, with an `ETag` (the key) that a revalidation answers `304`.
struct PosterRoute: Sendable {
    let posters: any MoviePosters

    func register(on router: Router) {
        router.get("/posters/:key") { request in serve(request) }
    }

    private func serve(_ request: Request) -> Response {
        let key = request.parameters["key"] ?? ""
        guard key.utf8.count == 22, key.utf8.allSatisfy(Self.isKeyByte) else {
            return .error(.notFound, message: "No such poster.")
        }
        let etag = "\"\(key)\""
        let found: StoredPoster?
        do { found = try posters.poster(key: key) } catch {
            return .error(.serviceUnavailable, message: "The poster cannot be read right now.")
        }
        guard let poster = found else { return .error(.notFound, message: "No such poster.") }
        var response: Response
        if request.headers["If-None-Match"]?.contains(etag) == true {
            response = Response(status: .notModified)
        } else {
            response = Response(headers: ["Content-Type": poster.contentType], body: poster.bytes)
        }
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
