/// The access log's line format: `GET /movies/1 200 5120 87µs id=5f3a9c1e-2b`, with `-` for a streamed body's size.
///
/// The path is logged as sent (still percent-encoded, without the query), so a line never holds
/// bytes a terminal would interpret, and query strings (which may carry tokens) stay out of logs.
enum AccessLog {
    static func line(
        method: String, rawTarget: String, status: Int, bytes: Int?, microseconds: UInt64, requestID: String = ""
    ) -> String {
        let id = requestID.isEmpty ? "" : " id=\(requestID)"
        return "\(method) \(path(of: rawTarget)) \(status) \(bytes.map(String.init) ?? "-") \(microseconds)µs\(id)\n"
    }

    /// The target without its query string.
    static func path(of rawTarget: String) -> Substring {
        rawTarget.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }
}
