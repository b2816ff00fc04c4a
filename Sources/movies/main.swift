internal import CMimalloc
import FoundationEssentials
import Glibc
import HTTPServer
import MovieApp
import Primitives
import Screenplay

// The demo's executable: parses the command line, opens the store, serves the app until SIGINT or SIGTERM.
// C callbacks never live here (DESIGN.md §10): everything they reach is in the libraries. Linking CMimalloc makes
// mimalloc the process's allocator (Sources/CMimalloc/shim.h).

// `movies generate-catalog N`: a catalog of N movies in the seed's format, on standard output.
if CommandLine.arguments.dropFirst().first == "generate-catalog" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard arguments.count == 1, let count = Int(arguments[0]), (1...CatalogGenerator.maximumCount).contains(count)
    else {
        let usage =
            "usage: movies generate-catalog N  (N from 1 to \(CatalogGenerator.maximumCount); the catalog is written "
            + "to standard output)\n"
        StandardStream.error.write(usage)
        exit(64)
    }
    StandardStream.output.write(Array(CatalogGenerator.catalog(count: count)))
    exit(0)
}

let options: MovieServerOptions
do {
    options = try MovieServerOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch let error as MovieServerOptions.UsageError {
    // `--help`: the usage, on standard output. A mistake: what is wrong and the usage on standard error, exit 64.
    ApplicationOptions.exitWithUsage(error, program: "movies", usage: MovieServerOptions.usage)
}

HTTPServer.blockTerminationSignals()
let server: MovieServer
do {
    server = try MovieServer(options: options)
    try server.start()
} catch {
    StandardStream.error.write("movies: \(error)\n")
    exit(1)
}
// Written straight to the file descriptor: print is fully buffered on a pipe, and a supervisor or test reading
// the output must learn the port now.
var banner = "Screenplay movies: serving http://\(options.displayHost):\(server.port)/ (Ctrl-C to stop)\n"
if options.isDevelopment {
    banner += "movies: development mode: watching Templates/ and Public/\n"
}
if server.application.metricsPort != 0 {
    banner += "movies: metrics at http://\(options.displayHost):\(server.application.metricsPort)/metrics\n"
}
StandardStream.output.write(banner)
HTTPServer.waitForTerminationSignal()
print("movies: stopping")
server.stop()
