import Foundation
import HTTPServer
import MovieApp

// The demo's executable: parses the command line, opens the store, serves the app until SIGINT or SIGTERM.
// C callbacks never live here (DESIGN.md §10): everything they reach is in the libraries.

let options: MovieServerOptions
do {
    options = try MovieServerOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch let error as MovieServerOptions.UsageError {
    FileHandle.standardError.write(Data("movies: \(error.message)\n\n\(MovieServerOptions.usage)\n".utf8))
    exit(error.isHelp ? 0 : 64)
}

HTTPServer.blockTerminationSignals()
let server: MovieServer
do {
    server = try MovieServer(options: options)
    try server.start()
} catch {
    FileHandle.standardError.write(Data("movies: \(error)\n".utf8))
    exit(1)
}
print("Screenplay movies: serving http://\(options.displayHost):\(server.port)/ (Ctrl-C to stop)")
if options.isDevelopment {
    print("movies: development mode: watching Templates/ and Public/")
}
if server.application.metricsPort != 0 {
    print("movies: metrics at http://\(options.displayHost):\(server.application.metricsPort)/metrics")
}
HTTPServer.waitForTerminationSignal()
print("movies: stopping")
server.stop()
