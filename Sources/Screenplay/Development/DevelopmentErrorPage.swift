internal import HTTPServer

/// The page development mode shows when a screen cannot be built: what failed, which screen and template, and how
/// far the lifecycle got. Everything interpolated is escaped.
struct DevelopmentErrorPage {
    let failure: ScreenBuildFailure
    let url: String

    var html: String {
        let steps = failure.steps.enumerated().map { index, step in
            let mark = index == failure.steps.count - 1 ? " class=\"failed\"" : ""
            return "<li\(mark)>\(HTMLEscaping.escape(step))</li>"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Error in \(HTMLEscaping.escape(failure.controllerName))</title>
            <style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#222}pre{background:#fee;padding:1rem;\
            white-space:pre-wrap}li.failed{color:#b00;font-weight:bold}dt{font-weight:bold}</style></head>
            <body><h1>This screen could not be built</h1>
            <pre id="screenplay-error">\(HTMLEscaping.escape(String(describing: failure.error)))</pre>
            <dl><dt>Screen</dt><dd>\(HTMLEscaping.escape(failure.controllerName))</dd>
            <dt>Template</dt><dd>Templates/\(HTMLEscaping.escape(failure.templateName)).html</dd>
            <dt>URL</dt><dd>\(HTMLEscaping.escape(url))</dd></dl>
            <h2>Lifecycle steps reached</h2><ol id="screenplay-steps">\(steps.joined())</ol>
            <p>Development mode (<code>--dev</code>) shows this page; in production the user sees a plain page with a
            request id.</p></body></html>
            """
    }
}
