import Foundation
import Screenplay
import Testing

/// The wire's one home: the client's `wire.js` is generated from ``ScreenWire`` and must agree with it.
@Suite struct ScreenWireTests {
    /// The checked-in client module, beside the client's other modules.
    static let moduleURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Screenplay/Client/wire.js")

    @Test func theClientsWireModuleIsTheOneGeneratedFromScreenWire() throws {
        let generated = ScreenWire.clientModule
        if ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"] == "all" {
            try generated.write(to: Self.moduleURL, atomically: true, encoding: .utf8)
        }
        let checkedIn = try String(contentsOf: Self.moduleURL, encoding: .utf8)
        #expect(
            checkedIn == generated,
            """
            \(Self.moduleURL.path) disagrees with ScreenWire. Regenerate it: \
            SNAPSHOT_TESTING_RECORD=all swift test --filter ScreenWireTests
            """)
    }

    @Test func pathsGiveTheRoutersPatternTheClientsTemplateAndConcretePaths() {
        #expect(ScreenWire.action.pattern == "/screens/:sid/actions/:action")
        #expect(ScreenWire.action.template == "/screens/{sid}/actions/{action}")
        #expect(ScreenWire.action.path("S1", "close") == "/screens/S1/actions/close")
        #expect(ScreenWire.actionPath(screen: "S1", action: "close") == "/screens/S1/actions/close")
        #expect(ScreenWire.inputPath(screen: "S1") == ScreenWire.input.path("S1"))
        #expect(ScreenWire.pagePath(screen: "S1") == ScreenWire.page.path("S1"))
        #expect(ScreenWire.attach.pattern == "/streams/:stream/screens")
    }

    @Test func theModuleNamesEveryEventFieldHeaderAndAttribute() {
        let module = ScreenWire.clientModule
        for event in ScreenWire.Event.allCases { #expect(module.contains("\"\(event.rawValue)\"")) }
        for field in ScreenWire.Field.allCases { #expect(module.contains("\"\(field.rawValue)\"")) }
        for header in ScreenWire.Header.allCases { #expect(module.contains("\"\(header.rawValue)\"")) }
        for attribute in ScreenWire.Attribute.allCases { #expect(module.contains("\"\(attribute.rawValue)\"")) }
        #expect(module.contains("export const VERSION = \(ScreenWire.version);"))
        #expect(module.contains("developmentError: \"dev-error\""))
    }
}
