import Foundation
import Testing
import ViewKit

@Suite struct LoadImageTests {
    @Test(arguments: ["https://img.example.com/a.jpg", "http://img.example.com/a.jpg", "/posters/a.jpg"])
    func acceptsHTTPAndSiteRelativeURLs(_ address: String) throws {
        let image = ImageView()
        #expect(loadImage(with: try #require(URL(string: address)), into: image))
        #expect(image.imageURL == address)
        #expect(image.html.contains(#"src="\#(address)""#))
    }

    @Test(arguments: ["javascript:alert(1)", "data:image/png;base64,AAAA", "file:///etc/passwd", "ftp://x/y"])
    func rejectsOtherSchemesAndKeepsThePlaceholder(_ address: String) throws {
        let image = ImageView()
        image.placeholder = "/placeholder.svg"
        image.imageURL = "/old.jpg"
        #expect(!loadImage(with: try #require(URL(string: address)), into: image))
        #expect(image.imageURL == nil)
        #expect(
            image.html
                == #"<img id="v1" class="image-placeholder" src="/placeholder.svg" alt loading="lazy" decoding="async">"#
        )
    }

    /// The check itself, on strings `URL` would have encoded: a site-relative path is told by its first bytes when
    /// the byte after the "/" is ASCII, and by characters otherwise (a combining mark makes "/" another character).
    @Test func sourcesAreCheckedAsCharacters() {
        let allowed = ["/", "/a", "//img.example.com/a.jpg", "/\n", "HTTPS://IMG.EXAMPLE.COM/A.JPG", "/\u{E9}.svg"]
        let refused = ["/\\img.example.com/a.jpg", "/\u{301}a", "", "a/b", "\u{301}/a", "javascript:x"]
        for source in allowed { #expect(ImageView.isAllowedSource(source), "\(source)") }
        for source in refused { #expect(!ImageView.isAllowedSource(source), "\(source)") }
    }

    @Test func loadingMarksTheImageViewDirty() throws {
        let root = View()
        let image = ImageView()
        root.addSubview(image)
        _ = root.html
        loadImage(with: try #require(URL(string: "/a.jpg")), into: image)
        #expect(root.takeChanges(context: RenderContext()).count == 1)
    }
}

@Suite struct NukeShapeTests {
    @Test func nukeNamespaceCallLoadsTheImage() throws {
        let image = ImageView()
        Nuke.loadImage(with: try #require(URL(string: "https://img.example.com/heat.jpg")), into: image)
        #expect(image.imageURL == "https://img.example.com/heat.jpg")
    }
}
