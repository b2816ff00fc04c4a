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
    /// The release year, 1870 to 2100.
    public var year: Int
    /// The running time in minutes, 1 to 1000.
    public var runtimeMinutes: Int
    /// The rating from 0 to 10 with one decimal.
    public var rating: Double
    // The text fields share one immutable box: a movie is copied along every screen's bindings (a change reaches
    // each screen of the movie at once), and each copy of five strings and arrays was five reference-count updates
    // on objects every screen shares, which the two cores of a fan-out fought over. A copy is now one; a write
    // makes a new box.
    private var text: Text

    /// The title as shown, 1 to 200 characters.
    public var title: String {
        get { text.fields.title }
        set { text = text.with(\.title, newValue) }
    }
    /// The genres, at most 10, in display order.
    public var genres: [String] {
        get { text.fields.genres }
        set { text = text.with(\.genres, newValue) }
    }
    /// A short description, 1 to 2000 characters.
    public var overview: String {
        get { text.fields.overview }
        set { text = text.with(\.overview, newValue) }
    }
    /// Viewing tips, at most 10, in display order; may be empty.
    public var tips: [String] {
        get { text.fields.tips }
        set { text = text.with(\.tips, newValue) }
    }
    /// Where the poster is served from, such as `/public/posters/1.svg`; `nil` when there is none.
    public var posterUrl: String? {
        get { text.fields.posterUrl }
        set { text = text.with(\.posterUrl, newValue) }
    }

    /// Creates a movie from its fields, as given (the store validates what it is asked to keep).
    public init(
        id: Int, title: String, year: Int, runtimeMinutes: Int, genres: [String], rating: Double,
        overview: String, tips: [String], posterUrl: String?
    ) {
        self.id = id
        self.year = year
        self.runtimeMinutes = runtimeMinutes
        self.rating = rating
        text = Text(Text.Fields(title: title, genres: genres, overview: overview, tips: tips, posterUrl: posterUrl))
    }

    public static func == (lhs: Movie, rhs: Movie) -> Bool {
        lhs.id == rhs.id && lhs.year == rhs.year && lhs.runtimeMinutes == rhs.runtimeMinutes
            && lhs.rating == rhs.rating && (lhs.text === rhs.text || lhs.text.fields == rhs.text.fields)
    }

    /// This movie with `other`'s text, when the two texts are the same (else this movie as it is).
    ///
    /// For a movie read anew whose text did not change (a change of its rating, say): the screens then get the very
    /// strings they show, which compare equal at once.
    func sharingText(with other: Movie) -> Movie {
        guard text !== other.text, text.fields == other.text.fields else { return self }
        var shared = self
        shared.text = other.text
        return shared
    }

    /// The text fields of a movie, never changed once made: a write makes another box.
    private final class Text: Sendable {
        struct Fields: Equatable, Sendable {
            var title: String
            var genres: [String]
            var overview: String
            var tips: [String]
            var posterUrl: String?

            /// Equal when every text is the same code points (``Swift/String/isSameText(as:)``): the store decides on
            /// this whether a PATCH changes anything, and a client that sends "e\u{301}" for "é" asked for a change.
            static func == (lhs: Fields, rhs: Fields) -> Bool {
                lhs.title.isSameText(as: rhs.title) && lhs.overview.isSameText(as: rhs.overview)
                    && lhs.genres.isSameText(as: rhs.genres) && lhs.tips.isSameText(as: rhs.tips)
                    && (lhs.posterUrl ?? "").isSameText(as: rhs.posterUrl ?? "")
                    && (lhs.posterUrl == nil) == (rhs.posterUrl == nil)
            }
        }

        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }

        /// A box with `field` set to `value` and the other fields as here.
        func with<Value>(_ field: WritableKeyPath<Fields, Value>, _ value: Value) -> Text {
            var changed = fields
            changed[keyPath: field] = value
            return Text(changed)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, year, runtimeMinutes, genres, rating, overview, tips, posterUrl
    }

    /// Reads every field; `posterUrl` may be `null` or absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(Int.self, forKey: .id),
            title: try container.decode(String.self, forKey: .title),
            year: try container.decode(Int.self, forKey: .year),
            runtimeMinutes: try container.decode(Int.self, forKey: .runtimeMinutes),
            genres: try container.decode([String].self, forKey: .genres),
            rating: try container.decode(Double.self, forKey: .rating),
            overview: try container.decode(String.self, forKey: .overview),
            tips: try container.decode([String].self, forKey: .tips),
            posterUrl: try container.decodeIfPresent(String.self, forKey: .posterUrl))
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
