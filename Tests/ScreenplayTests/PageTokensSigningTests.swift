import Testing

@testable import Screenplay

/// The page token's signature, made with a MAC context keyed once, is HMAC-SHA-256 as the one-shot function makes it.
@Suite struct PageTokensSigningTests {
    @Test func theSignatureIsTheFirst128BitsOfHMACSHA256InURLSafeBase64() throws {
        let secret = "page-tokens-signing-tests-0123456789abcdef"
        let tokens = PageTokens(secret: secret)
        let key = Crypto.hmac(key: Array(secret.utf8), Array("screenplay page tokens".utf8))
        for (screen, url, browser) in [
            ("a.Q2xhc3NpY0Jyb3dzZXIx", "/movies/1", "AAAAAAAAAAAAAAAAAAAAAA"),
            ("s", "/movies?q=dr%C3%A4ma&page=2", "b"),
            ("", "", ""),
        ] {
            let message = Array(screen.utf8) + [0] + Array(url.utf8) + [0] + Array(browser.utf8)
            let expected = Crypto.base64URL(Array(Crypto.hmac(key: key, message).prefix(16)))
            let token = tokens.token(screen: screen, url: url, browser: browser)
            #expect(token == expected + "." + url)
            #expect(tokens.url(of: token, screen: screen, browser: browser) == url)
            #expect(tokens.url(of: token, screen: screen + "x", browser: browser) == nil)
            #expect(tokens.url(of: token, screen: screen, browser: browser + "x") == nil)
        }
        // Another secret signs otherwise.
        let other = PageTokens(secret: secret + "!")
        #expect(other.token(screen: "s", url: "/", browser: "b") != tokens.token(screen: "s", url: "/", browser: "b"))
    }

    @Test func theRenderDigestIsWrittenOverItsPlaceholderAndReadBack() {
        var html = Array(#"<!DOCTYPE html><html data-render="0000000000000000"><body>x</body></html>"#.utf8)
        let original = html
        let digest = RenderDigest.seal(&html)
        #expect(digest?.count == 16)
        #expect(RenderDigest.read(from: html) == digest)
        #expect(RenderDigest.hexadecimal(of: original) == digest)
        var changed = Array(#"<!DOCTYPE html><html data-render="0000000000000000"><body>y</body></html>"#.utf8)
        #expect(RenderDigest.seal(&changed) != digest)
        var none = Array("<html><body></body></html>".utf8)
        #expect(RenderDigest.seal(&none) == nil)
    }
}
