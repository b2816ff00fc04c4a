public import FoundationEssentials

/// Makes a catalog of any size in the seed's format (`{"movies": [Movie, …]}`), for trying the app with a long
/// list: `movies generate-catalog 100000 > Catalog/large.json`, then
/// `movies --catalog Catalog/large.json --database …`.
///
/// Deterministic: the same count makes the same bytes. Every movie satisfies the rules a catalog is checked against
/// (``MoviePatch``): titles of up to a few words, years from 1920 to 2024, ratings to one decimal, two genres, an
/// overview and three tips of plausible length (about 560 bytes a movie, some 56 MB for 100,000).
public enum CatalogGenerator {
    /// The most movies a catalog is made with.
    public static let maximumCount = 1_000_000

    private static let adjectives = [
        "Quiet", "Crimson", "Hollow", "Silver", "Northern", "Last", "Paper", "Salt", "Velvet", "Iron", "Broken",
        "Amber",
        "Distant", "Burning", "Glass", "Patient", "Lonely", "Electric", "Winter", "Golden",
    ]
    private static let nouns = [
        "Harbour", "Orchard", "Signal", "Lighthouse", "Archive", "Garden", "Engine", "Meridian", "Station", "River",
        "Ledger", "Compass", "Kingdom", "Tide", "Frontier", "Machine", "Letter", "Summer", "Bridge", "Chorus",
    ]
    private static let genres = [
        "Drama", "Comedy", "Thriller", "Mystery", "Romance", "Science Fiction", "Documentary", "Adventure", "Horror",
        "Animation",
    ]

    /// The catalog of `count` movies (ids 1 to `count`) as JSON, one movie a line.
    public static func catalog(count: Int) -> Data {
        var json = "{\n  \"movies\": [\n"
        json.reserveCapacity(count * 600)
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            // SplitMix64: the same sequence everywhere, so a catalog is reproducible.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        for id in 1...max(1, count) where count > 0 {
            let title = "The \(adjectives[next(adjectives.count)]) \(nouns[next(nouns.count)]) \(id)"
            let first = next(genres.count)
            let second = (first + 1 + next(genres.count - 1)) % genres.count
            let rating = Double(10 + next(90)) / 10
            let movie: [String] = [
                "\"id\": \(id)", "\"title\": \"\(title)\"", "\"year\": \(1920 + next(105))",
                "\"runtimeMinutes\": \(80 + next(100))", "\"genres\": [\"\(genres[first])\", \"\(genres[second])\"]",
                "\"rating\": \(rating)",
                "\"overview\": \"In \(title), a \(nouns[next(nouns.count)].lowercased()) keeper and a "
                    + "\(adjectives[next(adjectives.count)].lowercased()) stranger cross a town that remembers "
                    + "everything. What one of them hides the other must find before the season turns, and the "
                    + "town keeps its own counsel until the very last night.\"",
                "\"tips\": [\"Watch the background of the opening scene.\", \"The score returns in the last act: "
                    + "listen for it.\", \"Best seen without the trailer.\"]",
                "\"posterUrl\": null",
            ]
            json += "    {" + movie.joined(separator: ", ") + "}" + (id < count ? ",\n" : "\n")
        }
        json += "  ]\n}\n"
        return Data(json.utf8)
    }
}
