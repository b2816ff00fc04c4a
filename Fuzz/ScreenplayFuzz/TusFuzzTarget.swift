internal import Foundation
internal import HTTPServer
internal import Screenplay
internal import Synchronization

/// The tus endpoint against hostile headers: a real endpoint over a real folder, requests built from the input.
extension FuzzTargets {
    /// What the fuzzed endpoint allows: small uploads, a small quota.
    private static let tusQuota = 1 << 16

    private static let tusFolder: String = {
        let folder = NSTemporaryDirectory() + "screenplay-fuzz-tus-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        return folder
    }()

    private static let tusStorage: FileUploadStorage = {
        do { return try FileUploadStorage(folder: tusFolder) } catch { fatalError("fuzz storage: \(error)") }
    }()

    private static let tusRoutes: Router = {
        let router = Router()
        TusEndpoint(
            authorizes: { metadata, _ in metadata["screen"] == "S" && metadata["csrf"] == "T" ? "S" : nil },
            storage: tusStorage,
            configuration: UploadConfiguration(folder: tusFolder, maxSize: 1 << 14, quota: tusQuota),
            onFinished: { info in precondition(info.offset == info.length) }, logger: .silent
        ).register(on: router)
        return router
    }()

    /// Lines of the input: the first is `METHOD path` (the path after `/uploads`), then `Name: value` headers, then a
    /// blank line and the body. Header parsing never traps; every answer carries `Tus-Resumable` and a status from the
    /// protocol's; an upload never holds more than its length, and uploads never more than the quota.
    static func tus(_ bytes: [UInt8]) {
        var lines = bytes.split(separator: 10, maxSplits: 32, omittingEmptySubsequences: false)[...]
        let requestLine = String(decoding: lines.popFirst() ?? [], as: UTF8.self).split(separator: " ", maxSplits: 1)
        let methods: [String: HTTPMethod] = [
            "POST": .post, "PATCH": .patch, "HEAD": .head, "DELETE": .delete, "OPTIONS": .options,
        ]
        let method = requestLine.first.flatMap { methods[String($0)] } ?? .post
        let suffix = requestLine.count > 1 ? String(requestLine[1]) : ""
        var headers = HTTPHeaders()
        var body: [UInt8] = []
        while let line = lines.popFirst() {
            if line.isEmpty {
                body = Array(lines.joined(separator: [10]))
                break
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(String(text[..<colon]), value)
        }
        // The pure parsers: a count is digits only and says them back; metadata survives its own encoding.
        if let count = TusHeaders.parseCount(headers["Upload-Offset"] ?? "") {
            precondition(count >= 0)
            precondition(Int(headers["Upload-Offset"]!) == count)
        }
        if let metadata = TusHeaders.parseMetadata(headers["Upload-Metadata"] ?? "") {
            precondition(
                TusHeaders.parseMetadata(TusHeaders.formatMetadata(metadata)) == metadata,
                "\(metadata) → \(TusHeaders.formatMetadata(metadata))")
        }
        _ = TusHeaders.isOffsetContentType(headers["Content-Type"])

        var target = "/uploads" + suffix
        if method == .patch || method == .head || method == .delete, suffix.isEmpty {
            // Aim at a real upload most of the time: the newest one created.
            target = latestUpload.location ?? target
        }
        let request = Request(method: method, target: target, headers: headers, body: body)
        let response = tusRoutes.respond(to: request)
        let allowed: Set<Int> = [200, 201, 204, 400, 403, 404, 405, 409, 412, 413, 415, 500, 503, 507]
        precondition(allowed.contains(response.status.code), "status \(response.status.code)")
        // Every answer of the endpoint's own routes (the router answers other paths, and 405, itself).
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let id = path.dropFirst("/uploads/".count)
        let isEndpoint = path == "/uploads" || (path.hasPrefix("/uploads/") && !id.isEmpty && !id.contains("/"))
        if isEndpoint && response.status.code != 405 && response.status.code != 500 {
            precondition(response.headers["Tus-Resumable"] == "1.0.0", "\(method) \(target): \(response.status)")
        }
        if response.status == .created, let location = response.headers["Location"] {
            latestUpload.set(location)
        }
        var total = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tusFolder)) ?? []
        where name.hasSuffix(".info") {
            let id = String(name.dropLast(5))
            guard let info = try? tusStorage.info(id: id) else { continue }
            precondition(info.offset >= 0 && info.offset <= info.length)
            total += info.length
        }
        precondition(total <= tusQuota)
    }

    private static let latestUpload = LatestUpload()
}

/// The location of the last upload the fuzzer created.
final class LatestUpload: Sendable {
    private let value = Mutex<String?>(nil)
    var location: String? { value.withLock { $0 } }
    func set(_ location: String) { value.withLock { $0 = location } }
}
