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
    // `--help` is asked for: the usage alone, on standard output. A mistake: what is wrong, then the usage, on
    // standard error, and the status of a usage error (EX_USAGE).
    if error.isHelp {
        FileHandle.standardOutput.write(Data((MovieServerOptions.usage + "\n").utf8))
        exit(0)
    }
    FileHandle.standardError.write(Data("movies: \(error.message)\n\n\(MovieServerOptions.usage)\n".utf8))
    exit(64)
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
// Written straight to the file descriptor: print is fully buffered on a pipe, and a supervisor or test reading
// the output must learn the port now.
var banner = "Screenplay movies: serving http://\(options.displayHost):\(server.port)/ (Ctrl-C to stop)\n"
if options.isDevelopment {
    banner += "movies: development mode: watching Templates/ and Public/\n"
}
if server.application.metricsPort != 0 {
    banner += "movies: metrics at http://\(options.displayHost):\(server.application.metricsPort)/metrics\n"
}
FileHandle.standardOutput.write(Data(banner.utf8))
HTTPServer.waitForTerminationSignal()
print("movies: stopping")
server.stop()
