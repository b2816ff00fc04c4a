import Foundation
import MovieApp

/// A fresh folder under the system's temporary directory, removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("MovieAppTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes a catalog of `movies` as JSON and returns its path.
    func catalog(_ movies: [Movie], named name: String = "catalog.json") throws -> String {
        let data = try JSONEncoder().encode(["movies": movies])
        let path = path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Small valid movies for tests, with ids `ids`.
func sampleMovies(_ ids: ClosedRange<Int> = 1...3) -> [Movie] {
    ids.map { id in
        Movie(
            id: id, title: "Sample \(id)", year: 1990 + id, runtimeMinutes: 90 + id, genres: ["Drama"],
            rating: Double(id), overview: "Overview of sample \(id).", tips: ["Tip \(id)"],
            posterUrl: "/public/posters/\(id).svg")
    }
}

/// The repository's root, found from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Options for a test server: an ephemeral port, the repository's templates and files, and, given a folder, a
/// database of its own there.
func serverOptions(databaseIn folder: TemporaryFolder? = nil) -> MovieServerOptions {
    var options = MovieServerOptions()
    options.port = 0
    options.root = repositoryRoot.path
    if let folder { options.database = folder.path("movies.sqlite") }
    return options
}

/// A started server over a database of its own in `folder`; stop it when done.
func startServer(databaseIn folder: TemporaryFolder) throws -> MovieServer {
    let server = try MovieServer(options: serverOptions(databaseIn: folder))
    try server.start()
    return server
}
