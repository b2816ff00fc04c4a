import FoundationEssentials
public import HTTPServer
import Primitives

/// The catalog as CSV at `GET /movies.csv` (RFC 4180): a header line, then one line a movie in the list's order
/// (title, then id), streamed page by page through the store's range reads, never whole in memory.
///
/// Columns: `id,title,year,runtimeMinutes,genres,rating,overview,tips`; `genres` and `tips` are joined with `; `
/// inside their field. A field holding a comma, a quote, a carriage return or a line feed is quoted, its quotes
/// doubled; lines end with CRLF. The file is `text/csv; charset=utf-8; header=present`, saved as `movies.csv`. Pages
/// are read one after the other while the client takes them, so a movie created or deleted during a download may be
/// missed or listed twice near the page boundary where it lands; each line is a committed movie.
///
/// ```swift
/// MovieCSVExport(store: store).register(on: router)
/// ```
public struct MovieCSVExport: Sendable {
    private let store: any MovieStore
    /// Movies read a page.
    static let pageSize = 500

    /// Creates the export over `store`.
    public init(store: any MovieStore) {
        self.store = store
    }

    /// Adds `GET /movies.csv` to `router`.
    public func register(on router: Router) {
        router.get("/movies.csv") { _ in response() }
    }

    /// The streamed CSV response; the first page is read before answering, so a store that fails gives a 503.
    func response() -> Response {
        let first: [Movie]
        do {
            first = try store.movies(matching: .all, from: 0, count: Self.pageSize)
        } catch {
            return .error(.serviceUnavailable, message: "The catalog cannot be read right now; try again later.")
        }
        let store = store
        // The first page still to send, the next page's place (nil after the last), and whether the header went.
        let state = Locked<(waiting: [Movie]?, next: Int?, headerSent: Bool)>(
            (first, first.count == Self.pageSize ? first.count : nil, false))
        let producer = BodyProducer {
            let (header, page, place) = state.withLock { state in
                defer {
                    state.headerSent = true
                    state.waiting = nil
                }
                return (!state.headerSent, state.waiting, state.next)
            }
            let movies: [Movie]
            if let page {
                movies = page
            } else {
                guard let place else { return nil }
                movies = try store.movies(matching: .all, from: place, count: Self.pageSize)
                state.withLock { $0.next = movies.count == Self.pageSize ? place + movies.count : nil }
            }
            var bytes: [UInt8] = header ? Array((Self.columns.joined(separator: ",") + "\r\n").utf8) : []
            for movie in movies { bytes += Self.line(for: movie) }
            return bytes
        }
        return Response(
            headers: [
                "Content-Type": "text/csv; charset=utf-8; header=present",
                "Content-Disposition": Response.contentDisposition(for: "movies.csv"),
                "Cache-Control": "no-store",
            ], body: .produced(producer))
    }

    static let columns = ["id", "title", "year", "runtimeMinutes", "genres", "rating", "overview", "tips"]

    /// One movie's CSV line, CRLF included.
    static func line(for movie: Movie) -> [UInt8] {
        let fields = [
            String(movie.id), movie.title, String(movie.year), String(movie.runtimeMinutes),
            movie.genres.joined(separator: "; "), MovieDetailData.rating(movie.rating), movie.overview,
            movie.tips.joined(separator: "; "),
        ]
        return Array((fields.map(field).joined(separator: ",") + "\r\n").utf8)
    }

    /// A field as RFC 4180 writes it: quoted, its quotes doubled, when it holds a comma, a quote, CR or LF.
    static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 13 || $0 == 10 }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
