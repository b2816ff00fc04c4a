import FoundationEssentials

extension Request {
    /// The body decoded as an `application/x-www-form-urlencoded` form.
    ///
    /// - Throws: ``HTTPError`` 415 when the content type is another one, 400 when a name or value
    ///   is not valid UTF-8 once decoded. A `%` without two hex digits stays as it is.
    public func form() throws -> FormParameters {
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw HTTPError(.unsupportedMediaType, message: "Expected an application/x-www-form-urlencoded body.")
        }
        guard let form = QueryParameters(parsing: body, strictness: .rejectingInvalidUTF8) else {
            throw HTTPError(.badRequest, message: "The form is not valid UTF-8.")
        }
        return form
    }

    /// The body decoded as JSON into `type`.
    ///
    /// - Throws: ``HTTPError`` 415 when the content type is not JSON (`application/json` or
    ///   `…+json`), 400 with a message that names the problem (and the field's path) when the body
    ///   does not decode.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        guard let mediaType, mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw HTTPError(.unsupportedMediaType, message: "Expected an application/json body.")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: Request.describe(error))
        } catch {
            throw HTTPError(.badRequest, message: "The body is not valid JSON.")
        }
    }

    /// The media type of the body without parameters, lower-cased: `application/json`.
    var mediaType: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingOptionalWhitespace() } ?? ""
        return type.lowercased()
    }

    /// Says what is wrong with the client's JSON without echoing Swift type names.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let components = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            return components.isEmpty ? "the top level" : "`" + components.joined().drop { $0 == "." } + "`"
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "The body is not valid JSON."
        case .dataCorrupted(let context):
            return "Invalid value at \(path(context.codingPath))."
        case .keyNotFound(let key, let context):
            return "Missing field `\(key.stringValue)` at \(path(context.codingPath))."
        case .typeMismatch(_, let context):
            return "Wrong type of value at \(path(context.codingPath))."
        case .valueNotFound(_, let context):
            return "Missing value at \(path(context.codingPath))."
        @unknown default:
            return "The body does not match the expected JSON."
        }
    }
}
