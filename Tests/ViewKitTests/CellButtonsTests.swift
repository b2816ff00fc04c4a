import Reactive
import Testing

@testable import ViewKit

/// A table connects the buttons a cell holds when it is made; a template's cell prototype says once, when it loads,
/// whether its cells can hold any.
@Suite struct CellButtonsTests {
    /// A cell kind of the app's that makes its button in `awakeFromNib()`, not in the template.
    final class ButtonedCell: View {
        override func awakeFromNib() {
            addSubview(Button(title: "Pick", actionName: "pick"))
        }
    }

    private static let template = """
        <main><ul data-view="TableView" data-outlet="table" aria-label="Rows">\
        <li data-cell="plain"><span data-outlet="title"></span> <img data-outlet="poster" alt=""></li>\
        <li data-cell="templated"><span data-outlet="title"></span><button data-action="pick">Pick</button></li>\
        <li data-cell="custom" data-view="ButtonedCell"></li>\
        </ul></main>
        """

    @Test func onlyPrototypesOfPlainViewsLabelsAndImagesAreKnownToHoldNoButtons() throws {
        let registry = ViewRegistry()
        registry.register(ButtonedCell.self, as: "ButtonedCell")
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates(["Screen.html": Self.template]), registry: registry)
        let root = try library.template(named: "Screen").instantiate()
        let table: TableView = root.outlet("table")
        #expect(table.cellPrototypes["plain"]?.mayHoldButtons == false)
        #expect(table.cellPrototypes["templated"]?.mayHoldButtons == true)
        #expect(table.cellPrototypes["custom"]?.mayHoldButtons == true)

        let kinds = ["plain", "templated", "custom"]
        let dataSource = TableViewDiffableDataSource<Int, Int>(tableView: table) { table, id in
            table.dequeueReusableCell(withIdentifier: kinds[id])
        }
        var snapshot = TableSnapshot<Int, Int>()
        snapshot.appendSections([0])
        snapshot.appendItems([0, 1, 2])
        dataSource.apply(snapshot)
        var picked: [Int] = []
        let bag = DisposeBag()
        dataSource.actions(named: "pick").subscribe(onNext: { picked.append($0) }).disposed(by: bag)
        for id in [2, 1] {
            let button = table.cell(forItem: id)?.liveSubviews.compactMap { $0 as? Button }.first
            button?.sendActions()
        }
        // The button the app's kind made in awakeFromNib is connected as the template's is.
        #expect(picked == [2, 1])
    }
}
