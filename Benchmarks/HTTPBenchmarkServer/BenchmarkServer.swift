import Glibc
import HTTPServer
import Synchronization

/// The server `Benchmarks/http/run.sh` loads: a 5 KB page rendered per request at `/dynamic`,
/// files at `/public/…`, idle event streams at `/events`, and `/broadcast`
/// sends one event to all of them.
///
/// Usage: `HTTPBenchmarkServer [--port N] [--threads N] [--public DIR] [--connections N]`
@main
enum BenchmarkServer {
    static func main() throws {
        HTTPServer.blockTerminationSignals()
        let options = Options(CommandLine.arguments.dropFirst())
        let streams = Mutex<[EventStream]>([])
        let router = Router()
        let requestCount = Atomic<Int>(0)
        router.get("/dynamic") { _ in
            let number = requestCount.add(1, ordering: .relaxed).newValue
            return .html(bytes: DynamicPage.render(number: number))
        }
        router.get("/healthz") { _ in .text("ok") }
        router.get("/events") { _ in
            let stream = EventStream()
            streams.withLock { $0.append(stream) }
            stream.send(event: "hello", data: "connected")
            return .eventStream(stream)
        }
        router.get("/broadcast") { _ in
            let event = EventStream.encode(event: "news", data: "broadcast")
            let all = streams.withLock { streams in
                streams.removeAll { $0.isClosed }
                return streams
            }
            for stream in all { stream.send(raw: event) }
            return .text("sent to \(all.count) streams")
        }
        if let publicDirectory = options.publicDirectory {
            router.serveFiles(at: "/public", from: publicDirectory)
        }
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: options.port, threadCount: options.threads,
            connectionLimit: options.connections)
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        print("listening on http://127.0.0.1:\(server.port) with \(options.threads) threads")
        fflush(nil)  // Standard output is a pipe in tests; the banner must not wait in a buffer.
        HTTPServer.waitForTerminationSignal()
        server.stop()
    }
}

/// A page of about 5 KB built per request around the request's number, as a screen render that
/// reuses its static markup would be.
enum DynamicPage {
    private static let items: [UInt8] = {
        var items: [UInt8] = []
        for item in 0..<48 {
            items.append(contentsOf: "<li class=\"movie\" id=\"m\(item)\">Movie number \(item) in the list</li>".utf8)
        }
        while items.count < 4900 { items.append(contentsOf: "<!-- padding -->".utf8) }
        return items
    }()

    static func render(number: Int) -> [UInt8] {
        var page: [UInt8] = []
        page.reserveCapacity(5200)
        page.append(contentsOf: "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Request ".utf8)
        page.append(contentsOf: String(number).utf8)
        page.append(contentsOf: "</title></head><body><h1>Movies</h1><ul>".utf8)
        page.append(contentsOf: items)
        page.append(contentsOf: "</ul><p>Rendered for request ".utf8)
        page.append(contentsOf: String(number).utf8)
        page.append(contentsOf: ".</p></body></html>\n".utf8)
        return page
    }
}

/// Command-line options.
struct Options {
    var port = 8080
    var threads = ServerConfiguration.coreCount
    var publicDirectory: String?
    var connections = 12_000

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let value = iterator.next() ?? ""
            switch argument {
            case "--port": port = Int(value) ?? port
            case "--threads": threads = Int(value) ?? threads
            case "--public": publicDirectory = value
            case "--connections": connections = Int(value) ?? connections
            default: print("ignoring unknown option \(argument)")
            }
        }
    }
}
