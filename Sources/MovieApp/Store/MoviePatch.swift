/// A validated JSON merge patch (RFC 7396) of a movie's editable fields.
///
/// Each field is either absent (`nil`: leave it as it is) or a new, valid value. The editable fields
/// are ``editableFields``; `id` and `posterUrl` are not editable. Rules, checked by every
/// initializer, so a `MoviePatch` value is always valid:
///
/// - `title`: 1 to 200 characters, not only whitespace, no control characters.
/// - `year`: a whole number from 1870 to 2100. `runtimeMinutes`: a whole number from 1 to 1000.
/// - `rating`: a number from 0 to 10. Ratings keep one decimal: finer values are **rounded** to the
///   nearest tenth (7.25 becomes 7.3, 7.24 becomes 7.2) rather than refused, since sliders and
///   averages produce them.
/// - `overview`: 1 to 2000 characters; line breaks and tabs allowed, other control characters not.
/// - `genres`, `tips`: lists of at most 10 strings, each 1 to 300 characters, no control characters.
///   `tips` may be empty.
///
/// Lengths count characters as people see them (grapheme clusters). In JSON, `null` is refused for
/// every field (none may be removed), unknown fields are refused, and an empty object `{}` is a
/// valid patch that changes nothing.
///
/// ```swift
/// let patch = try MoviePatch(json: Array(#"{"rating": 8.46, "tips": []}"#.utf8))
/// patch.rating  // 8.5
/// let updated = try store.update(id: 3, with: patch)
/// ```
public struct MoviePatch: Sendable, Equatable {
    /// The new title, or `nil` to keep it.
    public let title: String?
    /// The new year, or `nil` to keep it.
    public let year: Int?
    /// The new running time in minutes, or `nil` to keep it.
    public let runtimeMinutes: Int?
    /// The new genres, or `nil` to keep them.
    public let genres: [String]?
    /// The new rating, already rounded to one decimal, or `nil` to keep it.
    public let rating: Double?
    /// The new overview, or `nil` to keep it.
    public let overview: String?
    /// The new tips, or `nil` to keep them.
    public let tips: [String]?

    /// The fields a patch may contain, in the order they are validated.
    public static let editableFields = ["title", "year", "runtimeMinutes", "genres", "rating", "overview", "tips"]

    /// The largest JSON body ``init(json:)`` accepts, in bytes (64 KiB: far above the largest valid patch).
    public static let maximumBodySize = 64 * 1024

    /// Creates a patch from values, validating each one given.
    ///
    /// - Throws: ``MoviePatchError`` naming the first invalid field.
    public init(
        title: String? = nil, year: Int? = nil, runtimeMinutes: Int? = nil, genres: [String]? = nil,
        rating: Double? = nil, overview: String? = nil, tips: [String]? = nil
    ) throws(MoviePatchError) {
        self.title = try title.map { value throws(MoviePatchError) in try Rules.title(value) }
        self.year = try year.map { value throws(MoviePatchError) in try Rules.year(Double(value)) }
        self.runtimeMinutes = try runtimeMinutes.map { value throws(MoviePatchError) in
            try Rules.runtimeMinutes(Double(value))
        }
        self.genres = try genres.map { value throws(MoviePatchError) in try Rules.list(value, field: "genres") }
        self.rating = try rating.map { value throws(MoviePatchError) in try Rules.rating(value) }
        self.overview = try overview.map { value throws(MoviePatchError) in try Rules.overview(value) }
        self.tips = try tips.map { value throws(MoviePatchError) in try Rules.list(value, field: "tips") }
    }

    /// Parses and validates a JSON merge patch body.
    ///
    /// The body must be a JSON object of at most ``maximumBodySize`` bytes, in UTF-8, without
    /// duplicate keys, whose members are editable fields with valid values.
    ///
    /// - Throws: ``MoviePatchError`` naming the field at fault, or `body` for the document.
    public init(json body: [UInt8]) throws(MoviePatchError) {
        guard body.count <= Self.maximumBodySize else {
            throw MoviePatchError(field: "body", reason: "must be at most \(Self.maximumBodySize) bytes")
        }
        let document: JSONValue
        do {
            document = try StrictJSONParser.parse(body)
        } catch {
            if error.reason.hasPrefix("duplicate key") {
                throw MoviePatchError(field: "body", reason: "\(error.reason) at byte \(error.offset)")
            }
            throw MoviePatchError(field: "body", reason: "invalid JSON at byte \(error.offset): \(error.reason)")
        }
        guard case .object(let members) = document else {
            throw MoviePatchError(field: "body", reason: "must be a JSON object, not \(document.typeName)")
        }
        var values: [String: JSONValue] = [:]
        for (key, value) in members {
            guard Self.editableFields.contains(key) else {
                throw MoviePatchError(
                    field: key,
                    reason: "is not an editable field (editable: \(Self.editableFields.joined(separator: ", ")))")
            }
            if value == .null {
                throw MoviePatchError(field: key, reason: "must not be null (fields cannot be removed)")
            }
            values[key] = value
        }
        self.title = try values["title"].map { value throws(MoviePatchError) in
            try Rules.title(Rules.string(value, field: "title", rule: Rules.titleRule))
        }
        self.year = try values["year"].map { value throws(MoviePatchError) in
            try Rules.year(Rules.number(value, field: "year", rule: Rules.yearRule))
        }
        self.runtimeMinutes = try values["runtimeMinutes"].map { value throws(MoviePatchError) in
            try Rules.runtimeMinutes(Rules.number(value, field: "runtimeMinutes", rule: Rules.runtimeRule))
        }
        self.genres = try values["genres"].map { value throws(MoviePatchError) in
            try Rules.list(Rules.strings(value, field: "genres"), field: "genres")
        }
        self.rating = try values["rating"].map { value throws(MoviePatchError) in
            try Rules.rating(Rules.number(value, field: "rating", rule: Rules.ratingRule))
        }
        self.overview = try values["overview"].map { value throws(MoviePatchError) in
            try Rules.overview(Rules.string(value, field: "overview", rule: Rules.overviewRule))
        }
        self.tips = try values["tips"].map { value throws(MoviePatchError) in
            try Rules.list(Rules.strings(value, field: "tips"), field: "tips")
        }
    }

    /// Whether the patch changes no field.
    public var isEmpty: Bool {
        title == nil && year == nil && runtimeMinutes == nil && genres == nil && rating == nil && overview == nil
            && tips == nil
    }

    /// The movie with this patch's fields replaced; `id` and `posterUrl` are kept.
    public func applied(to movie: Movie) -> Movie {
        var result = movie
        if let title { result.title = title }
        if let year { result.year = year }
        if let runtimeMinutes { result.runtimeMinutes = runtimeMinutes }
        if let genres { result.genres = genres }
        if let rating { result.rating = rating }
        if let overview { result.overview = overview }
        if let tips { result.tips = tips }
        return result
    }

    /// Checks that a whole movie (from a catalog) satisfies the patch rules, and returns it with its
    /// rating rounded to one decimal.
    static func validated(_ movie: Movie) throws(MoviePatchError) -> Movie {
        guard movie.id > 0 else { throw MoviePatchError(field: "id", reason: "must be a positive whole number") }
        let patch = try MoviePatch(
            title: movie.title, year: movie.year, runtimeMinutes: movie.runtimeMinutes, genres: movie.genres,
            rating: movie.rating, overview: movie.overview, tips: movie.tips)
        return patch.applied(to: movie)
    }
}

/// The validation rules, one function per field, shared by both initializers.
private enum Rules {
    static let titleRule = "must be a string of 1 to 200 characters"
    static let yearRule = "must be a whole number from 1870 to 2100"
    static let runtimeRule = "must be a whole number from 1 to 1000"
    static let ratingRule = "must be a number from 0 to 10"
    static let overviewRule = "must be a string of 1 to 2000 characters"
    static let itemRule = "must be a string of 1 to 300 characters"
    static let maximumItems = 10

    static func string(_ value: JSONValue, field: String, rule: String) throws(MoviePatchError) -> String {
        guard case .string(let string) = value else {
            throw MoviePatchError(field: field, reason: "\(rule), not \(value.typeName)")
        }
        return string
    }

    static func number(_ value: JSONValue, field: String, rule: String) throws(MoviePatchError) -> Double {
        guard case .number(let number) = value else {
            throw MoviePatchError(field: field, reason: "\(rule), not \(value.typeName)")
        }
        return number
    }

    static func strings(_ value: JSONValue, field: String) throws(MoviePatchError) -> [String] {
        guard case .array(let elements) = value else {
            throw MoviePatchError(
                field: field, reason: "must be a list of at most \(maximumItems) strings, not \(value.typeName)")
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            strings.append(try string(element, field: "\(field)[\(index)]", rule: itemRule))
        }
        return strings
    }

    static func title(_ value: String) throws(MoviePatchError) -> String {
        try text(value, field: "title", maximum: 200, rule: titleRule, allowsLineBreaks: false)
    }

    static func overview(_ value: String) throws(MoviePatchError) -> String {
        try text(value, field: "overview", maximum: 2000, rule: overviewRule, allowsLineBreaks: true)
    }

    static func list(_ values: [String], field: String) throws(MoviePatchError) -> [String] {
        guard values.count <= maximumItems else {
            throw MoviePatchError(field: field, reason: "must be a list of at most \(maximumItems) strings")
        }
        for (index, value) in values.enumerated() {
            _ = try text(value, field: "\(field)[\(index)]", maximum: 300, rule: itemRule, allowsLineBreaks: false)
        }
        return values
    }

    static func year(_ value: Double) throws(MoviePatchError) -> Int {
        try wholeNumber(value, in: 1870...2100, field: "year", rule: yearRule)
    }

    static func runtimeMinutes(_ value: Double) throws(MoviePatchError) -> Int {
        try wholeNumber(value, in: 1...1000, field: "runtimeMinutes", rule: runtimeRule)
    }

    static func rating(_ value: Double) throws(MoviePatchError) -> Double {
        guard value.isFinite, (0...10).contains(value) else {
            throw MoviePatchError(field: "rating", reason: ratingRule)
        }
        return (value * 10).rounded(.toNearestOrAwayFromZero) / 10
    }

    private static func wholeNumber(
        _ value: Double, in range: ClosedRange<Int>, field: String, rule: String
    ) throws(MoviePatchError) -> Int {
        guard value.isFinite, value.rounded() == value, Double(range.lowerBound) <= value,
            value <= Double(range.upperBound)
        else { throw MoviePatchError(field: field, reason: rule) }
        return Int(value)
    }

    private static func text(
        _ value: String, field: String, maximum: Int, rule: String, allowsLineBreaks: Bool
    ) throws(MoviePatchError) -> String {
        guard !value.allSatisfy(\.isWhitespace), value.count <= maximum else {
            throw MoviePatchError(field: field, reason: rule)
        }
        let containsControl = value.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control
                && !(allowsLineBreaks && (scalar == "\n" || scalar == "\r" || scalar == "\t"))
        }
        guard !containsControl else {
            throw MoviePatchError(field: field, reason: "must not contain control characters")
        }
        return value
    }
}
