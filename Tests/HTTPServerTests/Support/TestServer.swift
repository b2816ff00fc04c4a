import Foundation
import HTTPServer

/// Starts a real server on 127.0.0.1 with an ephemeral port for one test, stopping it after.
func withServer<Result>(
    configuration: ServerConfiguration = ServerConfiguration(port: 0, threadCount: 2),
    routes: (Router) -> Void, _ body: (HTTPServer) throws -> Result
) throws -> Result {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let router = Router()
    routes(router)
    let server = HTTPServer(configuration: configuration, router: router)
    try server.start()
    defer { server.stop() }
    return try body(server)
}

/// A fresh directory under the system's temporary directory, removed after `body`.
func withTemporaryDirectory<Result>(_ body: (String) throws -> Result) throws -> Result {
    let path = NSTemporaryDirectory() + "httpserver-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}
