import ScreenplayTesting
import Testing

@Suite struct SnapshotHTMLPrettyPrinterTests {
    @Test func indentsNestedElementsAndKeepsTextOnlyElementsOnOneLine() {
        let html = #"<div id="v1"><h1>Heat</h1><p>A <em>heist</em> film.</p><br><img src="a.jpg"></div>"#
        #expect(
            SnapshotHTMLPrettyPrinter.prettyPrint(html) == """
                <div id="v1">
                  <h1>Heat</h1>
                  <p>
                    A
                    <em>heist</em>
                    film.
                  </p>
                  <br>
                  <img src="a.jpg">
                </div>

                """)
    }

    @Test func keepsQuotedGreaterThanSignsAndScriptContentIntact() {
        let html = #"<a title="a > b">x</a><script>if (a < b && c > d) {}</script>"#
        #expect(
            SnapshotHTMLPrettyPrinter.prettyPrint(html) == """
                <a title="a > b">x</a>
                <script>if (a < b && c > d) {}</script>

                """)
    }

    @Test func putsTheDoctypeOnItsOwnLine() {
        #expect(
            SnapshotHTMLPrettyPrinter.prettyPrint("<!DOCTYPE html><html><body></body></html>") == """
                <!DOCTYPE html>
                <html>
                  <body></body>
                </html>

                """)
    }
}
