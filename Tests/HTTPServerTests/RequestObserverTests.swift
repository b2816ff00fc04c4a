import HTTPServer
import Synchronization
import TestSupport
import Testing

@Suite struct RequestObserverTests {
    private final class Reports: Sendable {
        let all = TestMutex<[CompletedRequest]>([])
        func record(_ request: CompletedRequest) { all.withLock { $0.append(request) } }
        var list: [CompletedRequest] { all.withLock { $0 } }
    }

    private struct Failure: Error {}

    @Test func everyRequestIsReportedWithItsRoutePatternStatusAndAUniqueID() throws {
        let reports = Reports()
        var configuration = ServerConfiguration(port: 0, threadCount: 2)
        configuration.requestObserver = reports.record
        let seen = TestMutex<[String]>([])
        try withServer(
            configuration: configuration,
            routes: { router in
                router.get("/movies/:id") { request in
                    seen.withLock { $0.append(request.requestID) }
                    return .text("movie")
                }
            }
        ) { server throws in
            _ = try TestConnection.request(port: server.port, "/movies/1?token=secret")
            _ = try TestConnection.request(port: server.port, "/movies/2")
            _ = try TestConnection.request(port: server.port, "/elsewhere")
            #expect(eventually { reports.list.count == 3 })
        }
        let list = reports.list.sorted { $0.rawTarget < $1.rawTarget }
        #expect(list.map(\.route) == [nil, "/movies/:id", "/movies/:id"])
        #expect(list.map(\.status) == [404, 200, 200])
        #expect(list[1].path == "/movies/1")
        #expect(list[1].bytes == 5)
        #expect(Set(list.map(\.requestID)).count == 3)
        // The handler saw the same id the report carries.
        #expect(Set(seen.withLock { $0 }) == Set(list.dropFirst().map(\.requestID)))
    }

    @Test func anUnexpectedErrorGetsAPlainPageNamingOnlyTheRequestID() throws {
        let reports = Reports()
        var configuration = ServerConfiguration(port: 0, threadCount: 2)
        configuration.requestObserver = reports.record
        try withServer(configuration: configuration, routes: { $0.get("/crash") { _ in throw Failure() } }) {
            server throws in
            let response = try TestConnection.request(port: server.port, "/crash")
            #expect(response.status == 500)
            #expect(eventually { reports.list.count == 1 })
            let id = try #require(reports.list.first?.requestID)
            #expect(response.text.contains("Request id: \(id)."))
            #expect(!response.text.contains("Failure"))
        }
    }
}
