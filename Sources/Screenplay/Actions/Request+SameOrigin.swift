internal import HTTPServer

extension Request {
    /// Whether the request comes from a page of this site (`Sec-Fetch-Site`, else `Origin` against `Host`); a
    /// request that says neither is let through. Every post to a screen or a stream checks it first.
    var isSameOrigin: Bool {
        if let site = headers["sec-fetch-site"], site == "cross-site" || site == "same-site" { return false }
        guard let origin = headers["origin"] else { return true }
        guard let host = headers["host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}
