import Reactive
import Testing

@testable import ViewKit

@Suite("FileField: the template's file input, its upload events, its rendering")
struct FileFieldTests {
    static func render(_ view: View, _ context: RenderContext = RenderContext()) -> String {
        String(decoding: view.renderHTML(context: context), as: UTF8.self)
    }

    @Test("a template's <input type=file> is a FileField in a form that posts multipart/form-data")
    func templatesMakeFileFields() throws {
        let library = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates([
                "Profile.html": """
                <form data-outlet="form"><input data-outlet="name" data-label="Name">
                <input data-outlet="avatar" name="picture" type="file" data-label="Avatar" accept="image/png">
                <button data-action="save">Save</button></form>
                """
            ]), registry: Fixtures.registry())
        let view = try library.template(named: "Profile").instantiate()
        let avatar: FileField = view.outlet("avatar")
        #expect(avatar.name == "picture" && avatar.label == "Avatar")
        var context = RenderContext()
        context.uploadAttributes = [("data-upload-url", "/uploads"), ("data-upload-screen", "S1")]
        let html = Self.render(view, context)
        #expect(html.contains(#"<form id="#) && html.contains(#"method="post" enctype="multipart/form-data""#))
        #expect(
            html.contains(
                #"accept="image/png" name="picture" type="file" data-upload-url="/uploads" data-upload-screen="S1">"#))
        #expect(html.contains(#"value="0" max="1" hidden></progress>"#))
        // A form without a file field posts as before.
        let plain = try TemplateLibrary(
            directory: try Fixtures.temporaryTemplates([
                "Plain.html": #"<form data-outlet="form"><input data-outlet="name" data-label="Name"></form>"#
            ]), registry: Fixtures.registry())
        #expect(!Self.render(try plain.template(named: "Plain").instantiate(), context).contains("enctype"))
    }

    @Test("upload attributes shared by every page read with the page's own in its place; setting them replaces both")
    func sharedUploadAttributesTakeThePagesOwn() {
        var context = RenderContext()
        context.setUploadAttributes(
            [("data-upload-url", "/uploads"), ("data-upload-key", "screen")], screen: ("data-upload-screen", "S1"),
            at: 1)
        #expect(context.uploadAttributes.map(\.name) == ["data-upload-url", "data-upload-screen", "data-upload-key"])
        #expect(context.uploadAttributes.map(\.value) == ["/uploads", "S1", "screen"])
        let field = FileField(tagName: "div")
        #expect(
            Self.render(field, context).contains(
                #"type="file" data-upload-url="/uploads" data-upload-screen="S1" data-upload-key="screen">"#))
        context.uploadAttributes = [("data-upload-url", "/elsewhere")]
        #expect(context.uploadAttributes.map(\.value) == ["/elsewhere"])
    }

    @Test("an upload's events show on the field, then reach rx.file; a failure is the field's error")
    func eventsShowThenReachTheBinder() throws {
        let field = FileField()
        field.name = "avatar"
        field.label = "Avatar"
        var heard: [String] = []
        let bag = DisposeBag()
        field.rx.file.subscribe(onNext: { event in
            switch event {
            case .started(let upload): heard.append("started \(upload.received)")
            case .progress(let upload): heard.append("progress \(upload.received)")
            case .finished(let file): heard.append("finished \((try? file.contents()) ?? [])")
            case .failed(_, let message): heard.append("failed \(message)")
            }
        }).disposed(by: bag)
        field.deliver(.started(FileUploadProgress(id: "u", filename: "a.png", received: 0, length: 4)))
        field.deliver(.progress(FileUploadProgress(id: "u", filename: "a.png", received: 2, length: 4)))
        var html = Self.render(field)
        #expect(html.contains(#"value="2" max="4" aria-valuenow="2">"#))
        #expect(html.contains("Sending a.png…"))
        field.deliver(
            .finished(
                UploadedFile(id: "u", filename: "a.png", declaredType: "image/png", length: 4, read: { [1, 2, 3, 4] })))
        #expect(Self.render(field).contains("Sent a.png."))
        field.deliver(.failed(id: "v", message: "Choose a PNG file; b.gif is not one."))
        html = Self.render(field)
        #expect(html.contains(#"aria-invalid="true""#))
        #expect(html.contains(#"class="field-error">Choose a PNG file; b.gif is not one.</p>"#))
        #expect(
            heard == [
                "started 0", "progress 2", "finished [1, 2, 3, 4]", "failed Choose a PNG file; b.gif is not one.",
            ])
        // A new upload clears the error.
        field.deliver(.started(FileUploadProgress(id: "w", filename: "c.png", received: 0, length: 1)))
        #expect(!Self.render(field).contains("aria-invalid"))
    }
}
