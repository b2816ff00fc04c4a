internal import CGumbo
internal import Foundation
internal import HTTPServer
internal import MovieApp
internal import Screenplay
internal import ViewKit

/// The fuzz targets, each a function of the input bytes that traps when an invariant breaks.
///
/// One binary serves them all; `SCREENPLAY_FUZZ_TARGET` picks one (`router`, `patch`, `template`, `escape`, `tus`, `multipart`).
enum FuzzTargets {
    static func run(_ name: String, _ bytes: [UInt8]) {
        switch name {
        case "router": router(bytes)
        case "patch": patch(bytes)
        case "template": template(bytes)
        case "escape": escape(bytes)
        case "tus": tus(bytes)
        case "multipart": multipart(bytes)
        default: fatalError("unknown fuzz target \(name)")
        }
    }

    private static let routes: Router = {
        let router = Router()
        router.get("/movies/:id") { request in .text(request.parameters["id"] ?? "") }
        router.post("/screens/:sid/actions/:action") { request in
            let form = try request.form()
            return .text(form["csrf"] ?? "")
        }
        router.get("/search") { request in .text(request.query["q"] ?? "") }
        return router
    }()

    /// Request target, then a blank line, then a urlencoded body: routing and query and form decoding never trap
    /// and always answer a status in the HTTP range.
    static func router(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 10) ?? bytes.endIndex
        let target = String(decoding: bytes[..<split], as: UTF8.self)
        let body = Array(bytes[min(split + 1, bytes.endIndex)...])
        for method in [HTTPMethod.get, .post] {
            var headers = HTTPHeaders()
            headers.add("Content-Type", "application/x-www-form-urlencoded")
            let request = Request(method: method, target: "/" + target, headers: headers, body: body)
            let response = routes.respond(to: request)
            precondition((100..<600).contains(response.status.code))
            _ = request.query.values(for: "q")
        }
    }

    /// JSON patch validation never traps; a patch it accepts is one the store's limits allow.
    static func patch(_ bytes: [UInt8]) {
        guard let patch = try? MoviePatch(json: bytes) else { return }
        if let title = patch.title { precondition((1...200).contains(title.count)) }
        if let overview = patch.overview { precondition((1...2000).contains(overview.count)) }
        if let rating = patch.rating { precondition((0...10).contains(rating)) }
        if let tips = patch.tips { precondition(tips.count <= 10) }
    }

    /// Any template text either fails with a `TemplateError` or yields a template that instantiates and renders.
    static func template(_ bytes: [UInt8]) {
        let directory = NSTemporaryDirectory() + "screenplay-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/Fuzz.html", contents: Data(bytes))
        guard let library = try? TemplateLibrary(directory: directory, registry: ViewRegistry()),
            let template = try? library.template(named: "Fuzz")
        else { return }
        _ = template.instantiate().renderHTML(context: RenderContext())
    }

    /// Text and attribute values rendered by a label parse back, through gumbo, as exactly that text and value in
    /// exactly one element: escaping never lets data become markup.
    static func escape(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
        let text = String(decoding: bytes[..<split], as: UTF8.self)
        let attribute = String(decoding: bytes[min(split + 1, bytes.endIndex)...], as: UTF8.self)
        let label = Label(text: text, tagName: "p")
        label.setAttribute("title", attribute)
        let html =
            "<!DOCTYPE html><html><head></head><body>"
            + String(decoding: label.renderHTML(context: RenderContext()), as: UTF8.self) + "</body></html>"
        let parsed = html.withCString { gumbo_parse($0)! }
        defer { gumbo_destroy_output(withUnsafePointer(to: kGumboDefaultOptions) { $0 }, parsed) }
        let body = children(of: parsed.pointee.root).last!
        let elements = children(of: body).filter { $0.pointee.type == GUMBO_NODE_ELEMENT }
        precondition(elements.count == 1, "escaping let markup through: \(html)")
        let paragraph = elements[0]
        var parsedText = ""
        for child in children(of: paragraph) {
            precondition(child.pointee.type == GUMBO_NODE_TEXT || child.pointee.type == GUMBO_NODE_WHITESPACE)
            parsedText += String(cString: child.pointee.v.text.text)
        }
        precondition(parsedText == normalized(text), "text changed: \(text.debugDescription)")
        let title = gumbo_get_attribute(&paragraph.pointee.v.element.attributes, "title")
        precondition(title.map { String(cString: $0.pointee.value) } == normalized(attribute))
    }

    /// The text a reader should see: the escaper turns NUL, DEL, C1 controls and noncharacters into U+FFFD (HTML
    /// documents must not contain them) and keeps everything else, CR included (as `&#13;`).
    private static func normalized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isForbidden =
                value == 0 || value == 0x7F || (0x80...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value)
                || value & 0xFFFE == 0xFFFE
            result.append(isForbidden ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    private static func children(of node: UnsafeMutablePointer<GumboNode>) -> [UnsafeMutablePointer<GumboNode>] {
        let vector = node.pointee.v.element.children
        return (0..<Int(vector.length)).map { vector.data[$0]!.assumingMemoryBound(to: GumboNode.self) }
    }
}
