/// One film of the catalog, as the store keeps it and the JSON API shows it.
///
/// A plain value: reading it never touches the store, and two movies are equal when every field is.
/// Its JSON form is the catalog's and the API's:
///
/// ```json
/// {"id": 1, "title": "The Lighthouse Accountant", "year": 1987, "runtimeMinutes": 104,
///  "genres": ["Drama"], "rating": 7.8, "overview": "…", "tips": ["…"],
///  "posterUrl": "/public/posters/1.svg"}
/// ```
///
/// `posterUrl` is written as `null` when there is no poster, so every key is always present.
public struct Movie: Codable, Sendable, Equatable {
    /// The movie's identifier, unique in its store and stable for its life; positive.
    public var id: Int
    /// The title as shown, 1 to 200 characters.
    public var title: String
    /// The release year, 1870 to 2100.
    public var year: Int
    /// The running time in minutes, 1 to 1000.
    public var runtimeMinutes: Int
    /// The genres, at most 10, in display order.
    public var genres: [String]
    /// The rating from 0 to 10 with one decimal.
    public var rating: Double
    /// A short description, 1 to 2000 characters.
    public var overview: String
    /// Viewing tips, at most 10, in display order; may be empty.
    public var tips: [String]
    /// Where the poster is served from, such as `/public/posters/1.svg`; `nil` when there is none.
    public var posterUrl: String?

    /// Creates a movie from its fields, as given (the store validates what it is asked to keep).
    public init(
        id: Int, title: String, year: Int, runtimeMinutes: Int, genres: [String], rating: Double,
        overview: String, tips: [String], posterUrl: String?
    ) {
        self.id = id
        self.title = title
        self.year = year
        self.runtimeMinutes = runtimeMinutes
        self.genres = genres
        self.rating = rating
        self.overview = overview
        self.tips = tips
        self.posterUrl = posterUrl
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, year, runtimeMinutes, genres, rating, overview, tips, posterUrl
    }

    /// Writes every field, `posterUrl` as `null` when absent, so clients can rely on each key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(year, forKey: .year)
        try container.encode(runtimeMinutes, forKey: .runtimeMinutes)
        try container.encode(genres, forKey: .genres)
        try container.encode(rating, forKey: .rating)
        try container.encode(overview, forKey: .overview)
        try container.encode(tips, forKey: .tips)
        try container.encode(posterUrl, forKey: .posterUrl)
    }
}
