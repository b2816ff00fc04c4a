// Measures template instantiation and full-page rendering, in views per second and bytes per second.
// Run in release mode: `swift run -c release ViewKitBenchmarks [templates directory]`.
import Foundation
import ViewKit

/// The custom header view the benchmark templates use.
final class BenchmarkHeaderView: View {
    override func awakeFromNib() {}
}

func templatesDirectory() -> String {
    if CommandLine.arguments.count > 1 { return CommandLine.arguments[1] }
    // The test fixtures: a screen with a nib, a list, buttons and images, and the page layout.
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/ViewKitTests/Fixtures").path
}

func countViews(_ view: View) -> Int {
    view.subviews.reduce(1) { $0 + countViews($1) }
}

/// Runs `body` `iterations` times per round and keeps the fastest of five rounds, so other
/// processes on a shared machine disturb the figure less.
func measure(_ name: String, iterations: Int, _ body: () -> Int) -> (seconds: Double, units: Int) {
    _ = body()  // warm up
    var best = (seconds: Double.infinity, units: 0)
    for _ in 0..<5 {
        let start = ContinuousClock.now
        var units = 0
        for _ in 0..<iterations { units += body() }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if seconds < best.seconds { best = (seconds, units) }
    }
    return best
}

let registry = ViewRegistry()
registry.register(BenchmarkHeaderView.self, as: "MovieHeaderView")
let library = try TemplateLibrary(directory: templatesDirectory(), registry: registry)
let screen = try library.template(named: "MovieDetail")
let layout = try library.template(named: "layout")
let context = RenderContext(
    actionPath: { "/screens/abc/actions/" + $0 }, hiddenFormFields: [("csrf", "0123456789abcdef")])

/// A page like the demo's: the layout with the movie screen and a list of 20 tips.
func makePage() -> View {
    let page = layout.instantiate()
    let content = screen.instantiate()
    let tips: ListView = content.outlet("tipsView")
    tips.update(
        with: Array(0..<20), id: { $0 }, makeRow: { _ in Label(tagName: "li") },
        configureRow: { row, index in (row as! Label).text = "Tip number \(index): watch for the <details> & more" })
    page.outlet("content", as: View.self).addSubview(content)
    return page
}

let iterations = 5_000
let viewsPerScreen = countViews(screen.instantiate())
let instantiation = measure("instantiate", iterations: iterations) { countViews(screen.instantiate()) }
let page = makePage()
let viewsPerPage = countViews(page)
let rendering = measure("render", iterations: iterations) { page.renderHTML(context: context).count }
let building = measure("build+render", iterations: iterations) { makePage().renderHTML(context: context).count }

func format(_ value: Double) -> String { String(format: "%.0f", value) }
print(
    "template instantiation (\(viewsPerScreen) views): \(format(Double(iterations) / instantiation.seconds)) trees/s, \(format(Double(instantiation.units) / instantiation.seconds)) views/s"
)
print(
    "full-page render (\(viewsPerPage) views, \(rendering.units / iterations) bytes): \(format(Double(iterations) / rendering.seconds)) pages/s, \(format(Double(iterations * viewsPerPage) / rendering.seconds)) views/s, \(format(Double(rendering.units) / rendering.seconds / 1e6)) MB/s"
)
print(
    "instantiate + fill + render a page: \(format(Double(iterations) / building.seconds)) pages/s, \(format(building.seconds / Double(iterations) * 1e6)) µs/page"
)
