import Foundation
import HTTPServer
import ScreenplayTesting
import Testing

@testable import MovieApp

/// `POST /api/movies` and `DELETE /api/movies/{id}` over HTTP, on a real SQLite file.
@Suite("MovieAPI create and delete")
struct MovieAPICreateDeleteTests {
    private static let valid = #"""
        {"title": "Commas, \"quotes\"\nand lines", "year": 2024, "runtimeMinutes": 99, "genres": ["Drama"],
         "rating": 6.25, "overview": "New.", "tips": []}
        """#

    private func post(_ api: APIServer, _ body: String, contentType: String? = "application/json") throws
        -> HTTPTestResponse
    {
        try send(
            "POST", "/api/movies", port: api.port, headers: contentType.map { ["Content-Type": $0] } ?? [:],
            body: Array(body.utf8))
    }

    @Test func createsAMovieAndAnswers201WithItsLocation() throws {
        let api = try APIServer()
        let response = try post(api, Self.valid.replacingOccurrences(of: "\\n", with: " "))
        #expect(response.status == 201)
        let movie = try response.decode(Movie.self)
        #expect(movie.id == sampleMovies().count + 1)
        #expect(movie.title == "Commas, \"quotes\" and lines")
        #expect(movie.rating == 6.3)
        #expect(response[header: "location"] == "/api/movies/\(movie.id)")
        #expect(try send("GET", "/api/movies/\(movie.id)", port: api.port).decode(Movie.self) == movie)
        #expect(try api.moviesOnDisk() == sampleMovies() + [movie])
    }

    @Test(
        "answers 400 naming the field and creates nothing",
        arguments: [
            (#"{"id": 9, "title": "T", "year": 2000, "runtimeMinutes": 9, "rating": 1, "overview": "O"}"#, "id: "),
            (#"{"year": 2000, "runtimeMinutes": 9, "rating": 1, "overview": "O"}"#, "title: is required"),
            (#"{"title": "T", "year": 1200, "runtimeMinutes": 9, "rating": 1, "overview": "O"}"#, "year: "),
            (#"{"title": "T", "year": 2000, "runtimeMinutes": 9, "rating": "9", "overview": "O"}"#, "rating: "),
            (#"{"title": "T\u0007", "year": 2000, "runtimeMinutes": 9, "rating": 1, "overview": "O"}"#, "title: "),
            (#"{"title": "T", "year": 2000, "runtimeMinutes": 9, "rating": 1, "overview": null}"#, "overview: "),
            (#"[1]"#, "body: "),
        ])
    func refusesInvalidBodies(body: String, message: String) throws {
        let api = try APIServer()
        let response = try post(api, body)
        #expect(response.status == 400)
        #expect(response.errorMessage?.hasPrefix(message) == true)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }

    @Test func refusesABodyThatIsNotJSON() throws {
        let api = try APIServer()
        #expect(try post(api, Self.valid, contentType: "text/plain").status == 415)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }

    @Test func deletesAMovieWith204ThenAnswers404() throws {
        let api = try APIServer()
        let first = try send("DELETE", "/api/movies/2", port: api.port)
        #expect(first.status == 204)
        #expect(first.body.isEmpty)
        #expect(try send("GET", "/api/movies/2", port: api.port).status == 404)
        let second = try send("DELETE", "/api/movies/2", port: api.port)
        #expect(second.status == 404)
        #expect(second.errorMessage == "no movie has id 2")
        #expect(try send("DELETE", "/api/movies/abc", port: api.port).status == 404)
        #expect(try api.moviesOnDisk().map(\.id) == sampleMovies().map(\.id).filter { $0 != 2 })
    }

    @Test func bothNeedTheAPIToken() throws {
        let folder = try TemporaryFolder()
        var options = serverOptions(databaseIn: folder)
        options.apiToken = "a-token-for-scripts-0123"
        let server = try MovieServer(options: options)
        try server.start()
        defer { server.stop() }
        let client = LiveClient(port: server.port)
        let before = try server.store.allMovies()
        let refusedPost = try client.request(
            "POST", "/api/movies", headers: ["Content-Type": "application/json"], body: Array(Self.valid.utf8))
        let refusedDelete = try client.request("DELETE", "/api/movies/1", headers: ["Authorization": "Bearer nope"])
        #expect(refusedPost.status == 401)
        #expect(refusedDelete.status == 401)
        #expect(try server.store.allMovies() == before)
        let allowed = try client.request(
            "DELETE", "/api/movies/1", headers: ["Authorization": "Bearer a-token-for-scripts-0123"])
        #expect(allowed.status == 204)
        #expect(try server.store.movie(id: 1) == nil)
    }
}
