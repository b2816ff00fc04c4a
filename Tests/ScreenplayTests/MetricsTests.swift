import Foundation
import HTTPServer
import Screenplay
import ScreenplayTesting
import TestSupport
import Testing

@Suite struct MetricsTests {
    @Test func requestsAreCountedByRoutePatternAndStatusNeverByRawPath() throws {
        let app = try OperationsTestApp()
        defer { app.stop() }
        _ = try app.client.get("/counter?start=1")
        _ = try app.client.get("/counter?start=2")
        _ = try app.client.get("/nowhere/\(UUID().uuidString)")
        let text = try app.client.get("/metrics").text
        #expect(text.contains("screenplay_http_requests_total{route=\"/counter\",method=\"GET\",status=\"200\"} 2\n"))
        #expect(text.contains("screenplay_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"} 1\n"))
        #expect(!text.contains("/nowhere"))
        #expect(text.contains("# TYPE screenplay_http_request_duration_seconds histogram"))
        #expect(try app.metric("screenplay_http_request_duration_seconds_count") ?? 0 >= 3)
        #expect(text.contains("screenplay_http_request_duration_seconds_bucket{le=\"+Inf\"}"))
    }

    @Test func sessionsStreamsPatchesAndRendersAreCounted() throws {
        let app = try OperationsTestApp()
        defer { app.stop() }
        let page = LivePage(try app.client.get("/counter"))
        // A page GET renders and keeps nothing; its stream's attach builds the live screen, which renders again to
        // learn whether the page is current.
        #expect(try app.metric("screenplay_sessions_open") == 0)
        #expect(try app.metric("screenplay_render_duration_seconds_count") == 1)
        let events = try app.client.openEvents(for: page)
        #expect(eventually { (try? app.metric("screenplay_event_streams_open")) == 1 })
        #expect(try app.metric("screenplay_sessions_open") == 1)
        #expect(try app.metric("screenplay_render_duration_seconds_count") == 2)
        app.factory.createdRelays[0].accept(9)
        let patch = try #require(try events.next { $0.event == "patch" })
        #expect(try app.metric("screenplay_patches_sent_total") == 1)
        // The framed event (`id:`, `event:`, `data:` lines) is larger than its data.
        #expect(try app.metric("screenplay_patch_bytes_total") ?? 0 > Double(patch.data.utf8.count))
        events.close()
        #expect(eventually { (try? app.metric("screenplay_event_streams_open")) == 0 })
    }

    @Test func evictedSessionsAreCounted() throws {
        var sessions = SessionConfiguration()
        sessions.capacity = 1
        let app = try OperationsTestApp(sessions: sessions)
        defer { app.stop() }
        // Page GETs keep nothing and evict nothing; three live screens do.
        for _ in 0..<3 { _ = try app.client.get("/counter") }
        #expect(try app.metric("screenplay_sessions_evicted_total") == 0)
        for _ in 0..<3 {
            let shared = try app.client.openSharedStream()
            defer { shared.close() }
            #expect(try app.client.attach(LivePage(try app.client.get("/counter")), to: shared.id).status == 204)
        }
        #expect(try app.metric("screenplay_sessions_evicted_total") == 2)
        #expect(try app.metric("screenplay_sessions_open") == 1)
    }

    @Test func metricsCanBeTurnedOff() throws {
        let app = try OperationsTestApp(operations: OperationsConfiguration(metrics: .off))
        defer { app.stop() }
        #expect(try app.client.get("/metrics").status == 404)
        #expect(app.application.metricsPort == 0)
        // Off means not counted at all (no lock, no clock per request), not merely not served.
        let page = LivePage(try app.client.get("/counter"))
        let events = try app.client.openEvents(for: page)
        app.factory.createdRelays[0].accept(9)
        _ = try #require(try events.next { $0.event == "patch" })
        let counters = app.application.metrics.exposition()
        #expect(!counters.contains("screenplay_http_requests_total{"))
        #expect(counters.contains("screenplay_http_request_duration_seconds_count 0\n"))
        #expect(counters.contains("screenplay_render_duration_seconds_count 0\n"))
        #expect(counters.contains("screenplay_event_streams_open 0\n"))
        #expect(counters.contains("screenplay_patches_sent_total 0\n"))
        events.close()
    }

    @Test func metricsCanBeServedOnAPortOfTheirOwn() throws {
        let app = try OperationsTestApp(operations: OperationsConfiguration(metrics: .port(0)))
        defer { app.stop() }
        #expect(try app.client.get("/metrics").status == 404)
        let port = app.application.metricsPort
        #expect(port != 0 && port != app.application.port)
        let response = try LiveClient(port: port).get("/metrics")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(response.text.contains("screenplay_sessions_open 0"))
    }

    @Test func labelValuesAreEscapedAsTheExpositionFormatRequires() {
        let metrics = Metrics()
        metrics.recordRequest(route: "/a\"b\\c\nd", method: "GET", status: 200, nanoseconds: 1_000)
        #expect(
            metrics.exposition().contains(
                "screenplay_http_requests_total{route=\"/a\\\"b\\\\c\\nd\",method=\"GET\",status=\"200\"} 1"))
    }

    /// Each series' count is kept wherever its requests come: in runs of one series (found by comparing with the
    /// series counted last), interleaved with others, and for series first seen after others, with the exposition
    /// listing them sorted by route, method and status whatever order they were first counted in.
    @Test func requestSeriesAreCountedInRunsAndInterleaved() {
        struct Series: Hashable {
            let route: String
            let method: String
            let status: Int
        }
        let metrics = Metrics()
        let routes = ["/movies/:id", "/movies", "unmatched", "/a-route-named-at-some-length/:id/edit"]
        var expected: [Series: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        var series = Series(route: routes[0], method: "GET", status: 200)
        for _ in 0..<3_000 {
            if Int.random(in: 0..<4, using: &generator) == 0 {
                series = Series(
                    route: routes.randomElement(using: &generator)!,
                    method: Bool.random(using: &generator) ? "GET" : "POST",
                    status: [200, 303, 404].randomElement(using: &generator)!)
            }
            // The route's own string or an equal one made apart from it: series are told apart by their values.
            let route =
                Bool.random(using: &generator)
                ? series.route : String(decoding: Array(series.route.utf8), as: UTF8.self)
            metrics.recordRequest(route: route, method: series.method, status: series.status, nanoseconds: 1_000)
            expected[series, default: 0] += 1
        }
        let lines = metrics.exposition().split(separator: "\n").filter {
            $0.hasPrefix("screenplay_http_requests_total{")
        }
        let wanted = expected.keys.sorted {
            ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status)
        }.map {
            "screenplay_http_requests_total{route=\"\($0.route)\",method=\"\($0.method)\",status=\"\($0.status)\"} "
                + "\(expected[$0]!)"
        }
        #expect(lines.map(String.init) == wanted)
    }
}
