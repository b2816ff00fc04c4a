import Foundation
import Testing

/// Every invalid PATCH leaves the database file and its write-ahead log byte for byte as they were, and the server
/// keeps answering. Complements `MovieAPITests`, which checks the messages and the decoded movies.
@Suite struct PatchAttackTests {
    /// Hostile bodies beyond the validation table: deep nesting, huge values, odd numbers, names that mean something
    /// to other parsers.
    static let hostileBodies: [PatchRejection] = [
        PatchRejection(
            bytes: Array(String(repeating: "[", count: 100_000).utf8), label: "100,000 open brackets", field: "body",
            message: ""),
        PatchRejection(
            bytes: Array(
                (String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)).utf8),
            label: "5,000 nested objects", field: "body", message: ""),
        PatchRejection(body: #"{"title": "\#(String(repeating: "é", count: 30_000))"}"#, field: "title", message: ""),
        PatchRejection(body: #"{"rating": 1e308}"#, field: "rating", message: ""),
        PatchRejection(body: #"{"rating": -0.0000001}"#, field: "rating", message: ""),
        PatchRejection(body: #"{"year": 99999999999999999999999}"#, field: "year", message: ""),
        PatchRejection(body: #"{"year": -9223372036854775808}"#, field: "year", message: ""),
        PatchRejection(body: #"{"year": 2000, "__proto__": {"admin": true}}"#, field: "__proto__", message: ""),
        PatchRejection(body: #"{"constructor": {"prototype": {}}}"#, field: "constructor", message: ""),
        PatchRejection(body: #"{"title": "ok", "title\u0000": "x"}"#, field: "title", message: ""),
        PatchRejection(body: #"{"rating": 5, "year": "2000"}"#, field: "year", message: ""),
        PatchRejection(body: #"{"tips": [[["deep"]]]}"#, field: "tips", message: ""),
        PatchRejection(body: #"{"title": "a\u0000b"}"#, field: "title", message: ""),
        PatchRejection(body: #"{"title": "\u001b[31mred"}"#, field: "title", message: ""),
        PatchRejection(body: #"{"overview": "bell\u0007"}"#, field: "overview", message: ""),
        PatchRejection(
            bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"rating": 5}"#.utf8), label: "a byte-order mark", field: "body",
            message: ""),
        PatchRejection(bytes: Array(#"{"rating": 5}"#.utf8) + [0], label: "a trailing NUL", field: "body", message: ""),
        PatchRejection(
            bytes: Array(#"{"title": "\#u{0}"}"#.utf8), label: "a raw NUL in a string", field: "body", message: ""),
        PatchRejection(
            bytes: Array(#"{"title": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), label: "an encoded surrogate",
            field: "body", message: ""),
        PatchRejection(
            bytes: Array(#"{"title": ""#.utf8) + [0xC0, 0xBC] + Array(#""}"#.utf8), label: "an overlong '<'",
            field: "body", message: ""),
        PatchRejection(bytes: Array(#"{"title": "abc"#.utf8), label: "a string cut short", field: "body", message: ""),
    ]

    @Test(
        "every invalid PATCH leaves the database file byte for byte unchanged",
        arguments: PatchRejection.all + hostileBodies)
    func leavesTheDatabaseUnchanged(_ rejection: PatchRejection) throws {
        let api = try APIServer()
        let before = try databaseBytes(api)
        let response = try api.patch("2", rejection.body)
        #expect(response.status == 400 || response.status == 413, "\(rejection.label)")
        #expect(response[header: "content-type"] == "application/json")
        #expect(try databaseBytes(api) == before)
        #expect(try send("GET", "/api/movies/2", port: api.port).status == 200)
    }

    @Test func aThousandInvalidPatchesInARowChangeNothing() throws {
        let api = try APIServer()
        let before = try databaseBytes(api)
        let bodies = PatchRejection.all + Self.hostileBodies
        for index in 0..<1_000 {
            let response = try api.patch(String(index % 3 + 1), bodies[index % bodies.count].body)
            #expect(response.status == 400 || response.status == 413)
        }
        #expect(try databaseBytes(api) == before)
        #expect(try api.moviesOnDisk() == sampleMovies())
    }

    @Test func aPatchForAnotherPathOrMethodChangesNothing() throws {
        let api = try APIServer()
        let before = try databaseBytes(api)
        let body = Array(#"{"rating": 1}"#.utf8)
        for (method, target) in [
            ("PATCH", "/api/movies"), ("PATCH", "/api/movies/"), ("PATCH", "/api/movies/1/"),
            ("PATCH", "/api/movies/1%00"),
            ("PATCH", "/api/movies/1;DROP%20TABLE%20movies"), ("PATCH", "/api/movies/%2531"), ("POST", "/api/movies/1"),
            ("PUT", "/api/movies/1"), ("DELETE", "/api/movies"), ("DELETE", "/api/movies/1%00"),
        ] {
            let response = try send(
                method, target, port: api.port, headers: ["Content-Type": "application/json"], body: body)
            #expect((400..<500).contains(response.status), "\(method) \(target)")
        }
        #expect(try databaseBytes(api) == before)
    }

    /// The bytes of the database file and its write-ahead log, read straight from disk.
    private func databaseBytes(_ api: APIServer) throws -> [[UInt8]] {
        try [api.databasePath, api.databasePath + "-wal"].map { path in
            FileManager.default.fileExists(atPath: path) ? Array(try Data(contentsOf: URL(fileURLWithPath: path))) : []
        }
    }
}
