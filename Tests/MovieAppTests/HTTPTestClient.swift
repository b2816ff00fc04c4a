import Foundation
import ScreenplayTesting

/// A response read off the wire.
struct HTTPTestResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    /// A header by lower-cased name.
    subscript(header name: String) -> String? { headers[name.lowercased()] }

    /// The body decoded as JSON into `type`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body))
    }

    /// The `error` member of a JSON error body.
    var errorMessage: String? {
        (try? decode([String: String].self))?["error"]
    }
}

/// Sends one HTTP/1.1 request over a fresh TCP connection to 127.0.0.1 with `Connection: close` and
/// reads the whole answer; reads time out after five seconds rather than hang a test.
func send(
    _ method: String, _ target: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []
) throws -> HTTPTestResponse {
    let connection = try LiveConnection(port: port)
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "PATCH" { head += "Content-Length: \(body.count)\r\n" }
    try connection.send(Array((head + "\r\n").utf8) + body)
    let response = try connection.readResponse(hasBody: method != "HEAD")
    var headers: [String: String] = [:]
    for (name, value) in response.headers { headers[name.lowercased()] = value }
    return HTTPTestResponse(status: response.status, headers: headers, body: response.body)
}
