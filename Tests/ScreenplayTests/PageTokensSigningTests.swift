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

    /// A token is written into a string of its exact length (a live screen keeps it as its CSRF token): for URLs
    /// of every length around a small string's and beyond, and with bytes outside ASCII, it is still the signature,
    /// a dot and the URL, which the tokens verify.
    @Test func aTokenOfAnyLengthIsTheSignatureADotAndTheURL() {
        let tokens = PageTokens(secret: "page-tokens-length-tests")
        let urls = (0..<80).map { "/" + String(repeating: "m", count: $0) } + ["/films/dr\u{E4}ma?q=\u{1F3AC}", ""]
        for url in urls {
            let token = tokens.token(screen: "s", url: url, browser: "b")
            let signature = String(token.utf8.prefix(22))!
            #expect(signature.utf8.count == 22 && signature.utf8.allSatisfy { $0 != UInt8(ascii: ".") })
            #expect(token == signature + "." + url, "url \(url.utf8.count) bytes")
            #expect(tokens.url(of: token, screen: "s", browser: "b") == url)
            #expect(tokens.url(of: signature + "." + url + "x", screen: "s", browser: "b") == nil)
        }
    }

    /// The key made ready once signs as the one-shot function does, for keys shorter than SHA-256's block, as long as
    /// it, and longer (hashed first), and for messages of every length around a block's.
    @Test func thePreparedKeySignsAsTheOneShotHMACDoes() {
        for keyLength in [0, 1, 32, 63, 64, 65, 200] {
            let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            let prepared = PreparedHMAC(key: key)
            for messageLength in [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000] {
                let message = (0..<messageLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ keyLength) }
                let expected = Crypto.hmac(key: key, message)
                #expect(expected.count == 32)
                #expect(prepared.mac(message) == expected, "key \(keyLength) bytes, message \(messageLength) bytes")
            }
        }
        // RFC 4231's test case 2: key "Jefe".
        let mac = PreparedHMAC(key: Array("Jefe".utf8)).mac(Array("what do ya want for nothing?".utf8))
        #expect(
            mac.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aDigestIsReadBackFromItsOwnDigitsAndFromNothingElse() {
        for value: UInt64 in [0, 1, 0x0123_4567_89AB_CDEF, .max] {
            #expect(RenderDigest.parse(RenderDigest.digits(of: value)) == value)
        }
        #expect(RenderDigest.digits(of: 0x0123_4567_89AB_CDEF) == "0123456789abcdef")
        for text in [
            "", "test", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg",
            " 123456789abcdef", "0123456789abcdé",
        ] {
            #expect(RenderDigest.parse(text) == nil, "\(text)")
        }
    }

    @Test func aRecentRenderIsTakenOnceByItsDigitsAndByNothingElse() {
        let renders = RecentRenders(budget: 1 << 20)
        let html = Array("<html>x</html>".utf8)
        renders.keep(html, digest: 0x00AB_CDEF_0123_4567)
        #expect(renders.bytes == html.count)
        #expect(renders.take("00ABCDEF01234567") == nil)
        #expect(renders.take("test") == nil)
        #expect(renders.take("00abcdef01234567") == html)
        #expect(renders.take("00abcdef01234567") == nil)
        #expect(renders.bytes == 0)
    }

    @Test func theRenderDigestIsWrittenOverItsPlaceholderAndReadBack() throws {
        var html = Array(#"<!DOCTYPE html><html data-render="0000000000000000"><body>x</body></html>"#.utf8)
        let original = html
        let digest = try #require(RenderDigest.seal(&html))
        #expect(RenderDigest.read(from: html) == digest)
        #expect(RenderDigest.hexadecimal(of: original) == RenderDigest.digits(of: digest))
        #expect(String(decoding: html, as: UTF8.self).contains(#"data-render="\#(RenderDigest.digits(of: digest))">"#))
        var changed = Array(#"<!DOCTYPE html><html data-render="0000000000000000"><body>y</body></html>"#.utf8)
        #expect(RenderDigest.seal(&changed) != digest)
        var none = Array("<html><body></body></html>".utf8)
        #expect(RenderDigest.seal(&none) == nil)
        // The first whole marker counts, after partial ones; one cut short at the end, or with no room for its
        // digits, is none.
        var partial = Array(#"<html data-x="1" data-rend data-render="0000000000000000">"#.utf8)
        let sealed = RenderDigest.seal(&partial)
        #expect(sealed == RenderDigest.read(from: partial))
        #expect(
            String(decoding: partial, as: UTF8.self).contains(
                #"data-rend data-render="\#(sealed.map(RenderDigest.digits(of:)) ?? "")">"#))
        var cut = Array(#"<html data-render=""#.utf8)
        #expect(RenderDigest.seal(&cut) == nil)
        var short = Array(#"<html data-render="0000">"#.utf8)
        #expect(RenderDigest.seal(&short) == nil)
    }

    @Test func theRenderDigestTakesEveryByteAndIsTheSameEverywhere() {
        // Every length around the sixteen-byte steps and the eight-byte word of the tail: each byte counts, its low
        // bit and its high bit, and so does the length (a zero byte more).
        for count in 0...48 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let digest = RenderDigest.hexadecimal(of: bytes)
            #expect(digest.utf8.count == 16)
            #expect(digest.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
            #expect(RenderDigest.hexadecimal(of: bytes + [0]) != digest, "length \(count)")
            for index in 0..<count {
                for bit: UInt8 in [0x01, 0x80] {
                    var changed = bytes
                    changed[index] ^= bit
                    #expect(RenderDigest.hexadecimal(of: changed) != digest, "length \(count), byte \(index)")
                }
            }
        }
        // The same digest on every instance and architecture: a page rendered by one instance is attached on another.
        #expect(RenderDigest.hexadecimal(of: []) == "3dcf86760217065c")
        let page = Array(#"<!DOCTYPE html><html data-render="0000000000000000">"#.utf8)
        #expect(RenderDigest.hexadecimal(of: page) == "1beb23ec7ca24f08")
    }
}
