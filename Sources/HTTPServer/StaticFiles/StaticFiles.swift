import Glibc

/// Serves regular files from one directory, and nothing outside it.
///
/// Every segment of the (still-encoded) path is decoded on its own and refused when it could
/// leave its place: empty, `.`, `..`, starting with `.`, or containing `/`, `\` or NUL once decoded.
/// A path through a symbolic link is resolved with `realpath` and must still lie under the
/// directory, so links leading out are refused. Every refusal is a plain 404, so probing learns nothing.
struct StaticFiles: Sendable {
    let prefix: String
    let directory: String
    let cacheControl: String
    /// The directory's canonical path when it existed at start-up; resolved per request otherwise.
    private let resolvedDirectory: String?

    init(prefix: String, directory: String, cacheControl: String = "public, max-age=60") {
        self.prefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        self.directory = directory
        self.cacheControl = cacheControl
        self.resolvedDirectory = StaticFiles.realPath(directory)
    }

    func respond(to request: Request) -> Response {
        guard let file = resolve(request.rawPath) else { return notFound }
        var headers: HTTPHeaders = [
            "Content-Type": ContentType.forFile(file.path),
            "ETag": file.entityTag,
            "Last-Modified": HTTPDate.format(secondsSince1970: file.modificationTime),
            "Cache-Control": cacheControl,
            "X-Content-Type-Options": "nosniff",
        ]
        if let ifNoneMatch = request.headers["If-None-Match"], StaticFiles.matches(ifNoneMatch, file.entityTag) {
            headers.remove("Content-Type")
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .file(path: file.path))
    }

    struct File {
        let path: String
        let size: Int
        let modificationTime: Int
        let entityTag: String
    }

    /// The file `rawPath` names under the directory, or `nil` when it must not or cannot be served.
    func resolve(_ rawPath: String) -> File? {
        guard rawPath.hasPrefix(prefix + "/") else { return nil }
        let rawSegments = rawPath.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        var relative: [String] = []
        for rawSegment in rawSegments {
            guard let segment = PercentDecoding.decode(rawSegment.utf8, plusAsSpace: false),
                StaticFiles.isSafe(segment)
            else { return nil }
            relative.append(segment)
        }
        guard !relative.isEmpty, let root = resolvedDirectory ?? StaticFiles.realPath(directory) else { return nil }
        guard let (path, info) = StaticFiles.walk(relative, under: root), (info.st_mode & S_IFMT) == S_IFREG else {
            return nil
        }
        let size = Int(info.st_size)
        let modified = Int(info.st_mtim.tv_sec)
        let tag =
            "\"\(String(size, radix: 16))-\(String(modified, radix: 16))-\(String(info.st_mtim.tv_nsec, radix: 16))\""
        return File(path: path, size: size, modificationTime: modified, entityTag: tag)
    }

    /// The path of `relative` under the canonical `root` and its status, or `nil` when it does not
    /// exist or leads out of `root`.
    ///
    /// `lstat` on each component finds symbolic links; without any (the common case) the joined
    /// path is already canonical, which saves `realpath`'s `readlink` on every component of `root`
    /// as well. With a link, `realpath` decides, and the result must still lie under `root`.
    static func walk(_ relative: [String], under root: String) -> (String, stat)? {
        var path = root
        var info = stat()
        for segment in relative {
            path += "/" + segment
            guard lstat(path, &info) == 0 else { return nil }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                guard let resolved = realPath(root + "/" + relative.joined(separator: "/")),
                    resolved.hasPrefix(root + "/"), stat(resolved, &info) == 0
                else { return nil }
                return (resolved, info)
            }
        }
        return (path, info)
    }

    static func isSafe(_ segment: String) -> Bool {
        guard let first = segment.utf8.first, first != UInt8(ascii: ".") else { return false }
        return !segment.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }
    }

    /// Whether an `If-None-Match` list names `tag` (weak comparison, as RFC 9110 asks for GET).
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var candidate = candidate.trimmingOptionalWhitespace()
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == tag
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private var notFound: Response {
        Response.error(.notFound, message: "Nothing here.")
    }
}
