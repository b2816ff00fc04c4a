import FoundationEssentials
public import HTTPServer
internal import Primitives
internal import Screenplay

/// The movies' JSON API: list, read, create, patch and delete.
///
/// | Route | Answer |
/// |---|---|
/// | `GET /api/movies` | 200 `{"movies": [Movie, …]}` in id order |
/// | `GET /api/movies/:id` | 200 the movie; 404 for an unknown id |
/// | `POST /api/movies` | 201 the new movie with its `id`, `Location: /api/movies/{id}`; 400 invalid field; 415 not JSON |
/// | `PATCH /api/movies/:id` | 200 the updated movie, after the commit; 400 invalid patch; 404 unknown id; 415 not JSON |
/// | `DELETE /api/movies/:id` | 204 after the commit; 404 unknown id (so a second `DELETE` answers 404) |
///
/// `PATCH` takes a JSON merge patch of the editable fields (see ``MoviePatch``) with the content type
/// `application/merge-patch+json` or `application/json`. The body is validated before the id is
/// looked up, so nothing is written unless the whole patch is valid. `POST` takes a JSON object of the editable
/// fields, no `id` (see ``MovieDraft``); an invalid or missing field is 400 naming it and creates nothing. Every error is JSON
/// `{"error": "…"}`: a patch error names the field (`rating: must be a number from 0 to 10`); a store
/// failure is 503 with a generic message, its details going to standard error. Responses are
/// `Cache-Control: no-store`, since every patch changes them.
///
/// ```swift
/// let router = Router()
/// MovieAPI(store: store).register(on: router)
/// ```
public struct MovieAPI: Sendable {
    private let store: any MovieStore

    /// Creates the API over `store`.
    public init(store: any MovieStore) {
        self.store = store
    }

    /// Adds the API's routes to `router`.
    ///
    /// With `token`, every API request needs `Authorization: Bearer <token>` (a `401` otherwise); without, the API is
    /// open, as for scripts on a machine of one's own.
    public func register(on router: Router, token: String? = nil) {
        let apiGuard = token.map(Guard.bearerToken)
        func guarded(_ handler: @escaping Handler) -> Handler { apiGuard?.protecting(handler) ?? handler }
        router.get("/api/movies", guarded { _ in list() })
        router.get("/api/movies/:id", guarded { request in show(request) })
        router.post("/api/movies", guarded { request in create(request) })
        router.patch("/api/movies/:id", guarded { request in patch(request) })
        router.delete("/api/movies/:id", guarded { request in delete(request) })
    }

    private func list() -> Response {
        do {
            return Self.json(MovieList(movies: try store.allMovies()))
        } catch {
            return Self.failure(error, while: "listing movies")
        }
    }

    private func show(_ request: Request) -> Response {
        guard let id = Self.movieID(in: request) else { return Self.notFound(request) }
        do {
            guard let movie = try store.movie(id: id) else { return Self.notFound(request) }
            return Self.json(movie)
        } catch {
            return Self.failure(error, while: "reading movie \(id)")
        }
    }

    private func patch(_ request: Request) -> Response {
        guard let id = Self.movieID(in: request) else { return Self.notFound(request) }
        guard Self.isJSON(request.headers["Content-Type"]) else {
            return Self.error(
                "the body must be JSON (Content-Type: application/merge-patch+json or application/json)",
                status: .unsupportedMediaType)
        }
        let patch: MoviePatch
        do {
            patch = try MoviePatch(json: request.body)
        } catch {
            return Self.error(error.description, status: .badRequest)
        }
        do {
            return Self.json(try store.update(id: id, with: patch))
        } catch {
            return Self.failure(error, while: "updating movie \(id)")
        }
    }

    private func create(_ request: Request) -> Response {
        guard Self.isJSON(request.headers["Content-Type"]) else {
            return Self.error("the body must be JSON (Content-Type: application/json)", status: .unsupportedMediaType)
        }
        let draft: MovieDraft
        do {
            draft = try MovieDraft(json: request.body)
        } catch {
            return Self.error(error.description, status: .badRequest)
        }
        do {
            let movie = try store.create(draft)
            var response = Self.json(movie, status: .created)
            response.headers["Location"] = "/api/movies/\(movie.id)"
            return response
        } catch {
            return Self.failure(error, while: "creating a movie")
        }
    }

    private func delete(_ request: Request) -> Response {
        guard let id = Self.movieID(in: request) else { return Self.notFound(request) }
        do {
            try store.delete(id: id)
            var response = Response(status: .noContent)
            response.headers["Cache-Control"] = "no-store"
            return response
        } catch {
            return Self.failure(error, while: "deleting movie \(id)")
        }
    }

    /// The `:id` parameter as a movie id; anything but a plain positive number names no movie.
    private static func movieID(in request: Request) -> Int? {
        guard let text = request.parameters["id"], !text.isEmpty, text.utf8.count <= 18,
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let id = Int(text), id > 0
        else { return nil }
        return id
    }

    /// Whether a content type is JSON: `application/json`, or any `+json` type such as
    /// `application/merge-patch+json`, with or without parameters.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingWhitespace().lowercased()
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    private static func notFound(_ request: Request) -> Response {
        error("no movie has id \(request.parameters["id"] ?? "")", status: .notFound)
    }

    /// 404 for a movie that vanished; 503, without internals, for a store that failed.
    private static func failure(_ failure: any Error, while action: String) -> Response {
        if let failure = failure as? StoreError, failure.kind == .notFound {
            return error(failure.message, status: .notFound)
        }
        StandardStream.error.write("movies: \(action) failed: \(failure)\n")
        return error("the movie store is unavailable, try again later", status: .serviceUnavailable)
    }

    private static func json(_ value: some Encodable, status: HTTPStatus = .ok) -> Response {
        var response = Response.json(value, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    private static func error(_ message: String, status: HTTPStatus) -> Response {
        json(["error": message], status: status)
    }
}

/// The list's JSON form, the catalog's: `{"movies": […]}`.
private struct MovieList: Encodable {
    let movies: [Movie]
}
