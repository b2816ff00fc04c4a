import FoundationEssentials
internal import Primitives

/// The edit form's text, field by field, as the user sees it.
struct MovieForm: Equatable, Sendable {
    var title = ""
    var year = ""
    var runtime = ""
    var genres = ""
    var rating = ""
    var overview = ""

    /// The form showing `movie`.
    init(movie: Movie) {
        title = movie.title
        year = String(movie.year)
        runtime = String(movie.runtimeMinutes)
        genres = movie.genres.joined(separator: ", ")
        rating = MovieDetailData.rating(movie.rating)
        overview = movie.overview
    }

    init() {}

    /// The genres as a list: split at commas, trimmed, empty ones left out.
    var genreList: [String] {
        genres.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}

/// A validation message for each field of the form that is not valid; the store's own rules (``MoviePatch``).
struct MovieFormErrors: Equatable, Sendable {
    var title: String?
    var year: String?
    var runtime: String?
    var genres: String?
    var rating: String?
    var overview: String?

    var isEmpty: Bool { self == MovieFormErrors() }

    /// Checks every field of `form` with the rules of the JSON API's PATCH, field by field, so each field gets its
    /// own message.
    init(checking form: MovieForm) {
        title = Self.message { _ = try MoviePatch(title: form.title) }
        year = Self.message(number: form.year, label: "The year") { _ = try MoviePatch(year: $0) }
        runtime = Self.message(number: form.runtime, label: "The runtime") { _ = try MoviePatch(runtimeMinutes: $0) }
        genres = Self.message { _ = try MoviePatch(genres: form.genreList) }
        rating =
            Double(form.rating).map { value in Self.message { _ = try MoviePatch(rating: value) } }
            ?? "The rating must be a number from 0 to 10."
        overview = Self.message { _ = try MoviePatch(overview: form.overview) }
    }

    init() {}

    private static func message(_ check: () throws -> Void) -> String? {
        do {
            try check()
            return nil
        } catch {
            return (error as? MoviePatchError)?.sentence ?? "\(error)"
        }
    }

    private static func message(number text: String, label: String, _ check: (Int) throws -> Void) -> String? {
        guard let value = Int(text.trimmingWhitespace()) else {
            return text.isEmpty ? "\(label) is required." : "\(label) must be a whole number."
        }
        return message { try check(value) }
    }
}

/// What the edit screen shows.
struct MovieEditData: Equatable, Sendable {
    /// The movie as it was when the form was filled: what Save expects to find in the store.
    var original: Movie
    /// The form's text.
    var form: MovieForm
    /// A message about the form as a whole (the save failed, the movie changed meanwhile), or `nil`.
    var status: String?

    var errors: MovieFormErrors { MovieFormErrors(checking: form) }
}

extension MoviePatchError {
    /// The error as a sentence for the form: “The year must be a whole number from 1870 to 2100.”
    var sentence: String {
        let subject: String
        switch field {
        case "title": subject = "The title"
        case "year": subject = "The year"
        case "runtimeMinutes": subject = "The runtime"
        case "rating": subject = "The rating"
        case "overview": subject = "The overview"
        case "genres": subject = "The genres"
        default: subject = field.hasPrefix("genres[") ? "Each genre" : field
        }
        return "\(subject) \(reason)."
    }
}
