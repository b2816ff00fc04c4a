internal import HTTPServer
internal import ViewKit

extension ScreenActions {
    /// `POST /screens/{sid}/rows` (`csrf`, `table`, `first`, `key`): a windowed table's page asks for the rows
    /// around the first row its user sees, as they scroll. The rows arrive as a patch on the screen's stream. Answers
    /// 204; 400 for a malformed post or a table the screen does not have, 403 for a token that does not verify or
    /// another origin. A screen this instance does not hold is built from the page's token first.
    func showTableRows(_ request: Request) throws -> Response {
        typealias Field = ScreenWire.Field
        guard request.isSameOrigin else { throw HTTPError(.forbidden, message: "Cross-origin request refused.") }
        guard let id = request.parameters["sid"] else {
            throw HTTPError(.notFound, message: "This screen has ended. Reload the page.")
        }
        let form = try request.form()
        // A page scrolled before its stream attached: its screen is built from the page's token.
        let session = try scriptSession(
            id, form: form, request: request, refusal: "This request's token is not valid. Reload the page.")
        for pair in form where ![Field.csrf, .table, .first, .key].contains(where: { $0.rawValue == pair.name }) {
            throw HTTPError(.badRequest, message: "A rows request has no parameter “\(pair.name.prefix(64))”.")
        }
        guard let table = form[Field.table.rawValue], !table.isEmpty, table.utf8.count <= 64,
            let first = Int(form[Field.first.rawValue] ?? ""), first >= 0
        else {
            throw HTTPError(.badRequest, message: "A rows request needs a table and a first row (0 or more).")
        }
        let key = form[Field.key.rawValue].map { String($0.prefix(1024)) }
        let perform = { @Sendable (screen: Screen) -> Bool in
            screen.showTableRows(table: table, first: first, key: key)
        }
        let answer = { @Sendable (found: Bool?) throws -> Response in
            switch found {
            case nil: throw HTTPError(.notFound, message: "This screen has ended. Reload the page.")
            case false?:
                throw HTTPError(.badRequest, message: "This screen has no windowed table “\(table.prefix(64))”.")
            case true?: return .noContent
            }
        }
        return try onScreen(session, request: request, perform, then: answer)
    }
}

extension Screen {
    /// Moves the window of the windowed table whose DOM id is `table` to start near row `first` (the row `key` when
    /// it is still there); answers whether the screen has such a table.
    func showTableRows(table id: String, first: Int, key: String?) -> Bool {
        ScreenScheduler.current?.catchUp()
        guard !isEnded, let table = page.windowedTable(withDOMID: id) else { return false }
        table.showRows(from: first, key: key)
        return true
    }
}

extension View {
    /// The windowed table of this subtree whose DOM id is `id`.
    fileprivate func windowedTable(withDOMID id: String) -> TableView? {
        if let table = self as? TableView, table.windowSize != nil, table.hasDOMID(id) { return table }
        for subview in liveSubviews {
            if let found = subview.windowedTable(withDOMID: id) { return found }
        }
        return nil
    }
}
