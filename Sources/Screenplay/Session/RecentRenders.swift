import Primitives

/// The pages rendered lately, by their render digest (``RenderDigest``): a page whose data changed between its render
/// and its stream's attach receives the difference as patches (``RenderDifference``) when its render is still here,
/// and a whole-page `reset` otherwise (kept too long, or rendered by another instance).
///
/// Bounded: at most ``SessionConfiguration/recentRenderBytes`` bytes of pages (8 MiB by default; 0 keeps none),
/// the oldest dropped first, and a page is taken out when its stream attaches. `/metrics` shows the bytes kept
/// (`screenplay_recent_render_bytes`). Keeping one costs a dictionary entry
/// and holds the bytes the GET already made, no copy. Thread-safe.
final class RecentRenders: Sendable {
    private struct State {
        var pages: [UInt64: [UInt8]] = [:]
        /// Digests, oldest first from `head`.
        var order: [UInt64] = []
        var head = 0
        var bytes = 0
    }

    private let budget: Int
    private let state = Locked(State())

    init(budget: Int) {
        self.budget = budget
    }

    /// The bytes of pages kept now.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The gauge's exposition, for `/metrics`.
    func exposition() -> String {
        "# HELP screenplay_recent_render_bytes Bytes of pages rendered lately, kept for their streams' attach.\n"
            + "# TYPE screenplay_recent_render_bytes gauge\nscreenplay_recent_render_bytes \(bytes)\n"
    }

    /// Keeps `html`, whose digest is `digest`, dropping the oldest pages past the budget.
    func keep(_ html: [UInt8], digest: UInt64) {
        guard html.count <= budget else { return }
        state.withLock { state in
            guard state.pages.updateValue(html, forKey: digest) == nil else { return }
            state.order.append(digest)
            state.bytes += html.count
            while state.bytes > budget, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let dropped = state.pages.removeValue(forKey: oldest) { state.bytes -= dropped.count }
            }
            if state.head > 64 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// The page rendered with the digest whose digits are `digest` (a page's `render` field), taken out; `nil` when it
    /// is not kept, or `digest` is no digest's digits.
    func take(_ digest: String) -> [UInt8]? {
        guard let digest = RenderDigest.parse(digest) else { return nil }
        return state.withLock { state in
            guard let html = state.pages.removeValue(forKey: digest) else { return nil }
            state.bytes -= html.count
            return html
        }
    }
}
