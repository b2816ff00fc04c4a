/// The page development mode shows when a screen cannot be built: what failed, which screen and template, and how
/// far the lifecycle got. Everything interpolated is escaped.
struct DevelopmentErrorPage {
    let failure: ScreenBuildFailure
    let url: String

    var html: String {
        let steps = failure.steps.enumerated().map { index, step in
            let mark = index == failure.steps.count - 1 ? " class=\"failed\"" : ""
            return "<li\(mark)>\(Self.escape(step))</li>"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Error in \(Self.escape(failure.controllerName))</title>
            <style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#222}pre{background:#fee;padding:1rem;\
            white-space:pre-wrap}li.failed{color:#b00;font-weight:bold}dt{font-weight:bold}</style></head>
            <body><h1>This screen could not be built</h1>
            <pre id="screenplay-error">\(Self.escape(String(describing: failure.error)))</pre>
            <dl><dt>Screen</dt><dd>\(Self.escape(failure.controllerName))</dd>
            <dt>Template</dt><dd>Templates/\(Self.escape(failure.templateName)).html</dd>
            <dt>URL</dt><dd>\(Self.escape(url))</dd></dl>
            <h2>Lifecycle steps reached</h2><ol id="screenplay-steps">\(steps.joined())</ol>
            <p>Development mode (<code>--dev</code>) shows this page; in production the user sees a plain page with a
            request id.</p></body></html>
            """
    }

    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
