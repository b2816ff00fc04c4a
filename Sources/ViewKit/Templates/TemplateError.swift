/// A template problem found when templates load: it names the file, the line and the outlet.
///
/// Its description reads like a compiler diagnostic:
/// `MovieDetail.html:12: outlet 'backButton': expected Button, found Label`.
public struct TemplateError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The template's file, relative to the templates directory (`Views/MovieHeaderView.html`).
    public var file: String
    /// The 1-based line of the offending element (0 when the problem is the file as a whole).
    public var line: Int
    /// The outlet concerned, if any.
    public var outlet: String?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, outlet: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.outlet = outlet
        self.message = message
    }

    /// `file:line: outlet 'name': message`.
    public var description: String {
        let location = line > 0 ? "\(file):\(line)" : file
        if let outlet { return "\(location): outlet '\(outlet)': \(message)" }
        return "\(location): \(message)"
    }
}
