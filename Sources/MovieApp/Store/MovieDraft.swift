/// The editable fields of a movie to create, validated: what ``MovieStore/create(_:)`` keeps, the store giving the id.
///
/// The same rules as ``MoviePatch`` (see there), every field but `genres` and `tips` required: `title`, `year`,
/// `runtimeMinutes`, `rating` and `overview` must be given; `genres` and `tips` default to empty lists. A new movie has
/// no poster. In JSON, `id` and unknown fields are refused, as are `null` values, so a draft value is always valid.
///
/// ```swift
/// let draft = try MovieDraft(json: Array(#"{"title": "Dune", "year": 2021, "runtimeMinutes": 155,
///     "rating": 8.0, "overview": "Sand."}"#.utf8))
/// let created = try store.create(draft)  // created.id is new
/// ```
public struct MovieDraft: Sendable, Equatable {
    /// The title.
    public let title: String
    /// The release year.
    public let year: Int
    /// The running time in minutes.
    public let runtimeMinutes: Int
    /// The genres, in display order.
    public let genres: [String]
    /// The rating, rounded to one decimal.
    public let rating: Double
    /// The overview.
    public let overview: String
    /// The viewing tips, in display order.
    public let tips: [String]

    /// The fields a draft must give, in the order they are checked.
    public static let requiredFields = ["title", "year", "runtimeMinutes", "rating", "overview"]

    /// Creates a draft from values, validating each one as ``MoviePatch`` does.
    ///
    /// - Throws: ``MoviePatchError`` naming the first invalid field.
    public init(
        title: String, year: Int, runtimeMinutes: Int, genres: [String] = [], rating: Double, overview: String,
        tips: [String] = []
    ) throws(MoviePatchError) {
        try self.init(
            MoviePatch(
                title: title, year: year, runtimeMinutes: runtimeMinutes, genres: genres, rating: rating,
                overview: overview, tips: tips))
    }

    /// Parses and validates a JSON object of the editable fields (the body of `POST /api/movies`).
    ///
    /// - Throws: ``MoviePatchError`` naming the field at fault (`id: is not an editable field …`,
    ///   `title: is required`), or `body` for the document.
    public init(json body: [UInt8]) throws(MoviePatchError) {
        try self.init(MoviePatch(json: body))
    }

    /// The draft a complete patch describes.
    private init(_ patch: MoviePatch) throws(MoviePatchError) {
        guard let title = patch.title else { throw Self.missing("title") }
        guard let year = patch.year else { throw Self.missing("year") }
        guard let runtimeMinutes = patch.runtimeMinutes else { throw Self.missing("runtimeMinutes") }
        guard let rating = patch.rating else { throw Self.missing("rating") }
        guard let overview = patch.overview else { throw Self.missing("overview") }
        self.title = title
        self.year = year
        self.runtimeMinutes = runtimeMinutes
        self.genres = patch.genres ?? []
        self.rating = rating
        self.overview = overview
        self.tips = patch.tips ?? []
    }

    private static func missing(_ field: String) -> MoviePatchError {
        MoviePatchError(field: field, reason: "is required")
    }

    /// The movie this draft becomes under `id`, without a poster.
    func movie(id: Int) -> Movie {
        Movie(
            id: id, title: title, year: year, runtimeMinutes: runtimeMinutes, genres: genres, rating: rating,
            overview: overview, tips: tips, posterUrl: nil)
    }
}
