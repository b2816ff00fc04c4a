import Testing
import ViewKit

/// Forms carry what the layer serving the page asks for, and nothing of their own.
@Suite struct HiddenFormFieldsTests {
    private func form() -> View {
        let root = View()
        root.addSubview(Button(title: "Save", actionName: "save"))
        let form = Form()
        form.addSubview(Button(title: "Go", actionName: "go"))
        root.addSubview(form)
        return root
    }

    @Test func formsThatPostCarryTheContextsHiddenFieldsInOrderEscaped() {
        let context = RenderContext(
            actionPath: { "/do/" + $0 }, hiddenFormFields: [("token", "a\"b"), ("step", "2")])
        let html = String(decoding: form().renderHTML(context: context), as: UTF8.self)
        let fields = #"<input type="hidden" name="token" value="a&quot;b"><input type="hidden" name="step" value="2">"#
        #expect(
            html
                == #"<div id="v1"><form id="v2" method="post" action="/do/save">"# + fields
                + #"<button type="submit">Save</button></form><form id="v3" method="post" action="/do/go">"# + fields
                + #"<button id="v4" type="submit" formaction="/do/go">Go</button></form></div>"#)
    }

    @Test func withoutHiddenFieldsAFormCarriesNone() {
        #expect(!form().html.contains("<input"))
    }

    @Test func aTemplatesFolderWithoutALayoutHasNoneUnlessOneIsBuiltIn() throws {
        let directory = try Fixtures.temporaryTemplates(["Screen.html": "<p>Hi</p>"])
        let plain = try TemplateLibrary(directory: directory, registry: ViewRegistry())
        #expect(!plain.templateNames.contains("layout"))
        let shell = "<!DOCTYPE html><html><head><title>T</title></head><body></body></html>"
        let framed = try TemplateLibrary(
            directory: directory, registry: ViewRegistry(), layoutHead: "<meta name=\"x\">", builtIns: ["layout": shell]
        )
        #expect(
            try framed.template(named: "layout").instantiate().html.hasPrefix(
                #"<!DOCTYPE html><html id="v1"><head><meta name="x"><title>T</title>"#))
    }
}
