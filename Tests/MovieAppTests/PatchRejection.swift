import Testing

/// A patch body the store must refuse, the field the error must name, and the whole message.
///
/// Shared by the `MoviePatch` tests and the HTTP tests, so every validation case is checked both
/// in-process and over the wire.
struct PatchRejection: Sendable, CustomTestStringConvertible {
    let body: [UInt8]
    let field: String
    let message: String
    let label: String

    init(body: String, field: String, message: String) {
        self.body = Array(body.utf8)
        self.field = field
        self.message = message
        self.label = body.count > 60 ? "\(body.prefix(57))..." : body
    }

    init(bytes: [UInt8], label: String, field: String, message: String) {
        self.body = bytes
        self.field = field
        self.message = message
        self.label = label
    }

    var testDescription: String { label }

    static let all: [PatchRejection] =
        [
            PatchRejection(
                body: #"{"rating": 11}"#, field: "rating", message: #"rating: must be a number from 0 to 10"#),
            PatchRejection(
                body: #"{"rating": -0.1}"#, field: "rating", message: #"rating: must be a number from 0 to 10"#),
            PatchRejection(
                body: #"{"rating": 10.06}"#, field: "rating", message: #"rating: must be a number from 0 to 10"#),
            PatchRejection(
                body: #"{"rating": "8"}"#, field: "rating",
                message: #"rating: must be a number from 0 to 10, not a string"#),
            PatchRejection(
                body: #"{"rating": null}"#, field: "rating",
                message: #"rating: must not be null (fields cannot be removed)"#),
            PatchRejection(
                body: #"{"rating": 1e400}"#, field: "body",
                message: #"body: invalid JSON at byte 11: number out of range"#),
            PatchRejection(
                body: #"{"year": 1869}"#, field: "year", message: #"year: must be a whole number from 1870 to 2100"#),
            PatchRejection(
                body: #"{"year": 2101}"#, field: "year", message: #"year: must be a whole number from 1870 to 2100"#),
            PatchRejection(
                body: #"{"year": 1999.5}"#, field: "year", message: #"year: must be a whole number from 1870 to 2100"#),
            PatchRejection(
                body: #"{"year": true}"#, field: "year",
                message: #"year: must be a whole number from 1870 to 2100, not a boolean"#),
            PatchRejection(
                body: #"{"year": null}"#, field: "year", message: #"year: must not be null (fields cannot be removed)"#),
            PatchRejection(
                body: #"{"runtimeMinutes": 0}"#, field: "runtimeMinutes",
                message: #"runtimeMinutes: must be a whole number from 1 to 1000"#),
            PatchRejection(
                body: #"{"runtimeMinutes": 1001}"#, field: "runtimeMinutes",
                message: #"runtimeMinutes: must be a whole number from 1 to 1000"#),
            PatchRejection(
                body: #"{"runtimeMinutes": [90]}"#, field: "runtimeMinutes",
                message: #"runtimeMinutes: must be a whole number from 1 to 1000, not a list"#),
            PatchRejection(
                body: #"{"title": ""}"#, field: "title", message: #"title: must be a string of 1 to 200 characters"#),
            PatchRejection(
                body: #"{"title": "   "}"#, field: "title", message: #"title: must be a string of 1 to 200 characters"#),
            PatchRejection(
                body: #"{"title": 5}"#, field: "title",
                message: #"title: must be a string of 1 to 200 characters, not a number"#),
            PatchRejection(
                body: #"{"title": {"text": "A"}}"#, field: "title",
                message: #"title: must be a string of 1 to 200 characters, not an object"#),
            PatchRejection(
                body: #"{"title": "a\u0007b"}"#, field: "title", message: #"title: must not contain control characters"#
            ),
            PatchRejection(
                body: #"{"title": "two\nlines"}"#, field: "title",
                message: #"title: must not contain control characters"#),
            PatchRejection(
                body: #"{"title": null}"#, field: "title",
                message: #"title: must not be null (fields cannot be removed)"#),
            PatchRejection(
                body: #"{"overview": ""}"#, field: "overview",
                message: #"overview: must be a string of 1 to 2000 characters"#),
            PatchRejection(
                body: #"{"overview": false}"#, field: "overview",
                message: #"overview: must be a string of 1 to 2000 characters, not a boolean"#),
            PatchRejection(
                body: #"{"genres": "Drama"}"#, field: "genres",
                message: #"genres: must be a list of at most 10 strings, not a string"#),
            PatchRejection(
                body: #"{"genres": ["Drama", 3]}"#, field: "genres[1]",
                message: #"genres[1]: must be a string of 1 to 300 characters, not a number"#),
            PatchRejection(
                body: #"{"genres": [""]}"#, field: "genres[0]",
                message: #"genres[0]: must be a string of 1 to 300 characters"#),
            PatchRejection(
                body: #"{"genres": ["A","B","C","D","E","F","G","H","I","J","K"]}"#, field: "genres",
                message: #"genres: must be a list of at most 10 strings"#),
            PatchRejection(
                body: #"{"genres": null}"#, field: "genres",
                message: #"genres: must not be null (fields cannot be removed)"#),
            PatchRejection(
                body: #"{"tips": [null]}"#, field: "tips[0]",
                message: #"tips[0]: must be a string of 1 to 300 characters, not null"#),
            PatchRejection(
                body: #"{"tips": ["ok", "tab\there"]}"#, field: "tips[1]",
                message: #"tips[1]: must not contain control characters"#),
            PatchRejection(
                body: #"{"tips": ["1","2","3","4","5","6","7","8","9","10","11"]}"#, field: "tips",
                message: #"tips: must be a list of at most 10 strings"#),
            PatchRejection(
                body: #"{"tips": null}"#, field: "tips", message: #"tips: must not be null (fields cannot be removed)"#),
            PatchRejection(
                body: #"{"director": "Someone"}"#, field: "director",
                message:
                    #"director: is not an editable field (editable: title, year, runtimeMinutes, genres, rating, overview, tips)"#
            ),
            PatchRejection(
                body: #"{"id": 5}"#, field: "id",
                message:
                    #"id: is not an editable field (editable: title, year, runtimeMinutes, genres, rating, overview, tips)"#
            ),
            PatchRejection(
                body: #"{"posterUrl": "/x.svg"}"#, field: "posterUrl",
                message:
                    #"posterUrl: is not an editable field (editable: title, year, runtimeMinutes, genres, rating, overview, tips)"#
            ),
            PatchRejection(
                body: #"{"Rating": 8}"#, field: "Rating",
                message:
                    #"Rating: is not an editable field (editable: title, year, runtimeMinutes, genres, rating, overview, tips)"#
            ),
            PatchRejection(body: #"[]"#, field: "body", message: #"body: must be a JSON object, not a list"#),
            PatchRejection(body: #""rating""#, field: "body", message: #"body: must be a JSON object, not a string"#),
            PatchRejection(body: #"null"#, field: "body", message: #"body: must be a JSON object, not null"#),
            PatchRejection(
                body: #""#, field: "body", message: #"body: invalid JSON at byte 0: unexpected end of input"#),
            PatchRejection(
                body: #"{"rating": 8,}"#, field: "body",
                message: #"body: invalid JSON at byte 13: expected a key in quotes"#),
            PatchRejection(
                body: #"{"rating": 08}"#, field: "body", message: #"body: invalid JSON at byte 12: expected ',' or '}'"#
            ),
            PatchRejection(
                body: #"{"rating": 8} {}"#, field: "body",
                message: #"body: invalid JSON at byte 14: unexpected content after the document"#),
            PatchRejection(
                body: #"{'rating': 8}"#, field: "body",
                message: #"body: invalid JSON at byte 1: expected a key in quotes"#),
            PatchRejection(
                body: #"{"rating": 8, "rating": 9}"#, field: "body",
                message: #"body: duplicate key "rating" at byte 14"#),
            PatchRejection(
                body: #"{"title": "\ud800"}"#, field: "body",
                message: #"body: invalid JSON at byte 17: lone surrogate in \u escape"#),
            PatchRejection(
                body: #"{"title": "\x41"}"#, field: "body", message: #"body: invalid JSON at byte 13: invalid escape"#),
            PatchRejection(
                body: #"{"rating": NaN}"#, field: "body",
                message: #"body: invalid JSON at byte 11: unexpected character"#),
            PatchRejection(
                body: #"{"title": "\#(String(repeating: "x", count: 201))"}"#, field: "title",
                message: "title: must be a string of 1 to 200 characters"),
            PatchRejection(
                body: #"{"overview": "\#(String(repeating: "y", count: 2001))"}"#, field: "overview",
                message: "overview: must be a string of 1 to 2000 characters"),
            PatchRejection(
                body: #"{"tips": ["\#(String(repeating: "z", count: 301))"]}"#, field: "tips[0]",
                message: "tips[0]: must be a string of 1 to 300 characters"),
            PatchRejection(
                body: #"{"tips": \#(String(repeating: "[", count: 20))\#(String(repeating: "]", count: 20))}"#,
                field: "body", message: "body: invalid JSON at byte 24: nested deeper than 16 levels"),
            PatchRejection(
                bytes: Array(#"{"title": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), label: "invalid UTF-8",
                field: "body", message: "body: invalid JSON at byte 0: not valid UTF-8"),
            PatchRejection(
                bytes: Array(#"{"overview": ""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 70_000)
                    + Array(#""}"#.utf8),
                label: "a 70 kB body", field: "body", message: "body: must be at most 65536 bytes"),
        ]
}
