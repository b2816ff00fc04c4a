internal import FoundationEssentials
import Primitives
internal import Reactive
internal import Synchronization

/// The app's counters and histograms, rendered in the Prometheus text exposition format at `/metrics`.
///
/// | Metric | Type | Labels | Meaning |
/// |---|---|---|---|
/// | `screenplay_http_requests_total` | counter | `route`, `method`, `status` | Requests answered |
/// | `screenplay_http_request_duration_seconds` | histogram | | Request line to response queued |
/// | `screenplay_sessions_open` | gauge | | Screen sessions alive |
/// | `screenplay_sessions_evicted_total` | counter | | Sessions ended by expiry or the cap |
/// | `screenplay_event_streams_open` | gauge | | Event-stream connections (browsers' shared streams) |
/// | `screenplay_shared_streams_open` | gauge | | Browsers' shared streams |
/// | `screenplay_shared_stream_screens` | gauge | | Screens attached to shared streams, all streams together |
/// | `screenplay_shared_stream_screens_max` | gauge | | The most screens one shared stream carries now |
/// | `screenplay_patches_sent_total` | counter | | `patch` events sent |
/// | `screenplay_patch_bytes_total` | counter | | Bytes of `patch` events (as framed on the wire) |
/// | `screenplay_render_duration_seconds` | histogram | | Whole-page renders (GET and `reset`) |
/// | `screenplay_recent_render_bytes` | gauge | | Pages rendered lately, kept for their streams' attach (an application's) |
///
/// `route` is the route's pattern (`/movies/:id`), or `unmatched`, never the raw path, so the series stay few.
/// Counters sit behind one short lock and atomics: recording takes no allocation once a series exists.
///
/// ```swift
/// let metrics = Metrics()
/// metrics.recordRequest(route: "/movies/:id", method: "GET", status: 200, nanoseconds: 80_000)
/// print(metrics.exposition())
/// ```
public final class Metrics: Sendable {
    /// Upper bounds, in seconds, of the request and render duration buckets.
    public static let durationBuckets: [Double] = [
        0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct State: ~Copyable {
        /// The request series' keys, in the order each was first counted, each once.
        var requestKeys: [RequestKey] = []
        /// Each series' count, at its key's position in `requestKeys`.
        var requestCounts: [UInt64] = []
        /// Each key's position in `requestKeys`.
        var requestPositions: [RequestKey: Int] = [:]
        /// The position of the series counted last, a valid index of `requestKeys` once one is counted: a run of
        /// requests of one route, method and status (a server's usual traffic) finds its series by comparing the
        /// key with that one's, not by hashing it.
        var lastRequest = 0
        var requestDurations = Histogram()
        var renderDurations = Histogram()

        /// Counts one request of the series `key`.
        mutating func countRequest(_ key: RequestKey) {
            if lastRequest < requestKeys.count, requestKeys[lastRequest] == key {
                requestCounts[lastRequest] += 1
                return
            }
            if let position = requestPositions[key] {
                requestCounts[position] += 1
                lastRequest = position
            } else {
                requestPositions[key] = requestKeys.count
                lastRequest = requestKeys.count
                requestKeys.append(key)
                requestCounts.append(1)
            }
        }
    }

    private let state = Locked(State())
    private let openStreams = Atomic<Int>(0)
    private let patches = Atomic<UInt64>(0)
    private let patchBytes = Atomic<UInt64>(0)
    private let gauges: Locked<(sessions: @Sendable () -> Int, evicted: @Sendable () -> Int)>
    private let sharedStreams = Locked<@Sendable () -> [Int]>({ [] })
    private let collectors = Locked<[@Sendable () -> String]>([])

    /// Creates empty metrics; `openSessions` and `evictedSessions` are read at each exposition.
    public init(
        openSessions: @escaping @Sendable () -> Int = { 0 }, evictedSessions: @escaping @Sendable () -> Int = { 0 }
    ) {
        gauges = Locked((openSessions, evictedSessions))
    }

    /// Sets where the session gauges come from.
    func readSessions(open: @escaping @Sendable () -> Int, evicted: @escaping @Sendable () -> Int) {
        gauges.withLock { $0 = (open, evicted) }
    }

    /// Sets where the shared-stream gauges come from: the number of screens each open shared stream carries.
    func readSharedStreams(_ screensPerStream: @escaping @Sendable () -> [Int]) {
        sharedStreams.withLock { $0 = screensPerStream }
    }

    /// Adds series of the app's own to the exposition: `collect` returns them in the text format, each with its
    /// `# HELP` and `# TYPE` lines, and runs at every scrape.
    ///
    /// ```swift
    /// app.metrics.addCollector { "# HELP jobs_waiting Jobs waiting.\n# TYPE jobs_waiting gauge\njobs_waiting \(queue.count)\n" }
    /// ```
    public func addCollector(_ collect: @escaping @Sendable () -> String) {
        collectors.withLock { $0.append(collect) }
    }

    /// Counts one answered request and its duration.
    public func recordRequest(route: String?, method: String, status: Int, nanoseconds: UInt64) {
        let key = RequestKey(route: route ?? "unmatched", method: method, status: status)
        state.withLock { state in
            state.countRequest(key)
            state.requestDurations.record(nanoseconds)
        }
    }

    /// Counts one whole-page render.
    public func recordRender(nanoseconds: UInt64) {
        state.withLock { $0.renderDurations.record(nanoseconds) }
    }

    /// Counts one `patch` event of `bytes` bytes.
    public func recordPatch(bytes: Int) {
        patches.add(1, ordering: .relaxed)
        patchBytes.add(UInt64(bytes), ordering: .relaxed)
    }

    /// Counts an event stream opened; call ``streamClosed()`` when it closes.
    public func streamOpened() { openStreams.add(1, ordering: .relaxed) }

    /// Counts an event stream closed.
    public func streamClosed() { openStreams.subtract(1, ordering: .relaxed) }

    /// How many event streams are open now.
    public var openStreamCount: Int { openStreams.load(ordering: .relaxed) }

    /// The metrics in the Prometheus text exposition format (version 0.0.4).
    public func exposition() -> String {
        let (requestKeys, requestCounts, requestDurations, renderDurations) = state.withLock { state in
            (state.requestKeys, state.requestCounts, state.requestDurations, state.renderDurations)
        }
        let (sessions, evicted) = gauges.withLock { $0 }
        var text = ""
        text += "# HELP screenplay_http_requests_total Requests answered, by route pattern, method and status.\n"
        text += "# TYPE screenplay_http_requests_total counter\n"
        for (key, count) in zip(requestKeys, requestCounts).sorted(by: {
            ($0.0.route, $0.0.method, $0.0.status) < ($1.0.route, $1.0.method, $1.0.status)
        }) {
            text +=
                "screenplay_http_requests_total{route=\(Metrics.label(key.route)),method=\(Metrics.label(key.method)),status=\"\(key.status)\"} \(count)\n"
        }
        requestDurations.write(
            name: "screenplay_http_request_duration_seconds", help: "Time from request line to response queued.",
            into: &text)
        text += "# HELP screenplay_sessions_open Screen sessions alive.\n# TYPE screenplay_sessions_open gauge\n"
        text += "screenplay_sessions_open \(sessions())\n"
        text += "# HELP screenplay_sessions_evicted_total Sessions ended by expiry or by the cap.\n"
        text += "# TYPE screenplay_sessions_evicted_total counter\nscreenplay_sessions_evicted_total \(evicted())\n"
        text += "# HELP screenplay_event_streams_open Event-stream connections (browsers' shared streams).\n"
        text += "# TYPE screenplay_event_streams_open gauge\n"
        text += "screenplay_event_streams_open \(openStreams.load(ordering: .relaxed))\n"
        let screensPerStream = sharedStreams.withLock { $0 }()
        text += "# HELP screenplay_shared_streams_open Browsers' shared event streams.\n"
        text +=
            "# TYPE screenplay_shared_streams_open gauge\nscreenplay_shared_streams_open \(screensPerStream.count)\n"
        text += "# HELP screenplay_shared_stream_screens Screens attached to shared streams.\n"
        text += "# TYPE screenplay_shared_stream_screens gauge\n"
        text += "screenplay_shared_stream_screens \(screensPerStream.reduce(0, +))\n"
        text += "# HELP screenplay_shared_stream_screens_max The most screens one shared stream carries.\n"
        text += "# TYPE screenplay_shared_stream_screens_max gauge\n"
        text += "screenplay_shared_stream_screens_max \(screensPerStream.max() ?? 0)\n"
        text +=
            "# HELP screenplay_patches_sent_total Patch events sent.\n# TYPE screenplay_patches_sent_total counter\n"
        text += "screenplay_patches_sent_total \(patches.load(ordering: .relaxed))\n"
        text += "# HELP screenplay_patch_bytes_total Bytes of patch events as framed on the wire.\n"
        text += "# TYPE screenplay_patch_bytes_total counter\n"
        text += "screenplay_patch_bytes_total \(patchBytes.load(ordering: .relaxed))\n"
        renderDurations.write(
            name: "screenplay_render_duration_seconds", help: "Whole-page renders (GET and reset).", into: &text)
        for collect in collectors.withLock({ $0 }) { text += collect() }
        return text
    }

    /// A label value, quoted and escaped as the exposition format wants.
    static func label(_ value: String) -> String {
        var result = "\""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    /// Cumulative buckets over ``Metrics/durationBuckets``, a sum and a count.
    private struct Histogram {
        var counts = [UInt64](repeating: 0, count: Metrics.durationBuckets.count)
        var count: UInt64 = 0
        var sumNanoseconds: UInt64 = 0

        mutating func record(_ nanoseconds: UInt64) {
            let seconds = Double(nanoseconds) / 1e9
            if let index = Metrics.durationBuckets.firstIndex(where: { seconds <= $0 }) { counts[index] += 1 }
            count += 1
            sumNanoseconds &+= nanoseconds
        }

        func write(name: String, help: String, into text: inout String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
            var cumulative: UInt64 = 0
            for (bound, count) in zip(Metrics.durationBuckets, counts) {
                cumulative += count
                text += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "\(name)_bucket{le=\"+Inf\"} \(count)\n"
            text += "\(name)_sum \(Double(sumNanoseconds) / 1e9)\n"
            text += "\(name)_count \(count)\n"
        }
    }
}
