import Foundation
import MovieApp
import ScreenplayTesting
import Testing

/// `GET /movies.csv` over the real server: every movie in the list's order, streamed in pages, RFC 4180 quoting.
@Suite("Catalog CSV export")
struct MovieCSVExportTests {
    /// The records of an RFC 4180 document: fields split on commas outside quotes, `""` inside quotes a quote, records
    /// ended by CRLF outside quotes.
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if characters.first == "\"" {
                        field.unicodeScalars.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                quoted = true
            } else if scalar == "," {
                record.append(field)
                field = ""
            } else if scalar == "\r", characters.first == "\n" {
                characters.removeFirst()
                record.append(field)
                records.append(record)
                record = []
                field = ""
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        return records
    }

    @Test func exportsEveryMovieInListOrderAndAHostileMovieRoundTrips() throws {
        let folder = try TemporaryFolder()
        var options = serverOptions(databaseIn: folder)
        options.catalog = try folder.catalog(
            sampleMovies(1...1_203).map { movie in
                var movie = movie
                movie.rating = Double(movie.id % 100) / 10
                movie.year = 2000
                movie.runtimeMinutes = 90
                return movie
            })
        let server = try MovieServer(options: options)
        try server.start()
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let hostile = try server.store.create(
            MovieDraft(
                title: #"Quote " and, comma ""twice"""#, year: 1999, runtimeMinutes: 88,
                genres: ["Drama, dark", "Noir"],
                rating: 7.25, overview: "Line one,\r\nline \"two\"\nline three", tips: ["A; B", "C"]))

        let response = try client.get("/movies.csv")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/csv; charset=utf-8; header=present")
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.header("Content-Disposition") == #"attachment; filename="movies.csv""#)
        let records = Self.records(response.text)
        #expect(records.first == ["id", "title", "year", "runtimeMinutes", "genres", "rating", "overview", "tips"])
        let expected = try server.store.movies(matching: .all, from: 0, count: 2_000)
        #expect(expected.count == 1_204)
        #expect(records.dropFirst().map { $0.first ?? "" } == expected.map { String($0.id) })
        #expect(records.allSatisfy { $0.count == 8 })
        let line = try #require(records.first { $0.first == String(hostile.id) })
        #expect(line[1] == hostile.title)
        #expect(line[4] == "Drama, dark; Noir")
        #expect(line[5] == "7.3")
        #expect(line[6] == hostile.overview)
        #expect(line[7] == "A; B; C")
    }

    @Test func aStoreThatFailsAnswers503() throws {
        let server = try MovieServer(options: serverOptions(), store: FailingMovieStore())
        try server.start()
        defer { server.stop() }
        #expect(try LiveClient(port: server.port).get("/movies.csv").status == 503)
    }
}
