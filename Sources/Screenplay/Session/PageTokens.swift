/// The signed tokens a rendered page carries instead of a live screen. A page's token is its CSRF token too: every
/// form and attach brings it back.
///
/// A page GET keeps nothing on the server; the token is what lets the page's stream, or a post without JavaScript,
/// build the live screen later under the id the page was rendered under, on this instance or another that shares the
/// secret, before a restart or after. It reads `{signature}.{url}`: the screen's URL (its route and parameters) as
/// it was rendered, after 22 URL-safe base64 characters, the first 128 bits of HMAC-SHA-256 over
/// `screen NUL url NUL browser`, where `browser` is the identity the render was for (the `screenplay_browser`
/// cookie). A token altered in any character, shown by another browser, or for another screen id, does not verify.
///
/// Contract: ``token(screen:url:browser:)`` is a pure function of its arguments and the key;
/// ``url(of:screen:browser:)`` compares signatures in constant time. Thread-safe.
struct PageTokens: Sendable {
    /// The key, made ready once.
    private let prepared: PreparedHMAC
    /// The length of a token's signature, before its `.`.
    private static let signatureLength = 22

    /// Tokens signed with a key derived from `secret`, or with a random key of this process when there is none.
    init(secret: String?) {
        let key =
            secret.map { Crypto.hmac(key: Array($0.utf8), Array("screenplay page tokens".utf8)) }
            ?? Crypto.randomBytes(32)
        prepared = PreparedHMAC(key: key)
    }

    /// The token of a page rendered as screen `screen` at `url` for the browser `browser`.
    ///
    /// Written into a string of exactly its length: a live screen keeps its token as its CSRF token for its whole
    /// life, and joining the signature, the dot and the URL with `+` grew the string to about twice that
    /// (receipt: step 1 of Benchmarks/History/51-screen-memory-6.md). Invariant of the uninitialized string: the
    /// signature's base64 characters fill its first `signatureLength` bytes, the dot the next, the URL's own
    /// UTF-8 bytes the rest, which is exactly the capacity asked for and valid UTF-8 (ASCII, then a string's bytes).
    func token(screen: String, url: String, browser: String) -> String {
        let mac = mac(screen: screen, url: url, browser: browser)
        var url = url
        return url.withUTF8 { urlBytes in
            String(unsafeUninitializedCapacity: Self.signatureLength + 1 + urlBytes.count) { buffer in
                Self.writeBase64URL(first16: mac, into: buffer)
                buffer[Self.signatureLength] = UInt8(ascii: ".")
                _ = UnsafeMutableBufferPointer(rebasing: buffer[(Self.signatureLength + 1)...]).initialize(
                    from: urlBytes)
                return Self.signatureLength + 1 + urlBytes.count
            }
        }
    }

    /// The URL `token` was signed for, when it is the token of a page rendered as screen `screen` for `browser`;
    /// nil otherwise.
    func url(of token: String, screen: String, browser: String) -> String? {
        let bytes = token.utf8
        guard bytes.count >= Self.signatureLength + 1,
            bytes[bytes.index(bytes.startIndex, offsetBy: Self.signatureLength)] == UInt8(ascii: ".")
        else { return nil }
        let signature = String(token.utf8.prefix(Self.signatureLength))!
        let url = String(token.utf8.dropFirst(Self.signatureLength + 1))!
        guard SessionToken.equal(signature, self.signature(screen: screen, url: url, browser: browser)) else {
            return nil
        }
        return url
    }

    /// The signature alone, written as ``token(screen:url:browser:)`` writes it (the same invariant: the base64
    /// characters fill exactly the `signatureLength` bytes asked for).
    private func signature(screen: String, url: String, browser: String) -> String {
        let mac = mac(screen: screen, url: url, browser: browser)
        return String(unsafeUninitializedCapacity: Self.signatureLength) { buffer in
            Self.writeBase64URL(first16: mac, into: buffer)
            return Self.signatureLength
        }
    }

    private func mac(screen: String, url: String, browser: String) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(screen.utf8.count + url.utf8.count + browser.utf8.count + 2)
        message.append(contentsOf: screen.utf8)
        message.append(0)
        message.append(contentsOf: url.utf8)
        message.append(0)
        message.append(contentsOf: browser.utf8)
        return prepared.mac(message)
    }

    /// Writes the first sixteen bytes of `bytes` (zeros past its end) in twenty-two URL-safe base64 characters, without
    /// padding, into the start of `buffer` (which has room for all twenty-two: `written` never passes them), as
    /// `SessionToken.make` does.
    private static func writeBase64URL(first16 bytes: [UInt8], into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let alphabet = SessionToken.alphabet
        let count = min(16, bytes.count)
        var written = 0
        var index = 0
        while index < 16 {
            let first = index < count ? UInt32(bytes[index]) : 0
            let second = index + 1 < count ? UInt32(bytes[index + 1]) : 0
            let third = index + 2 < count ? UInt32(bytes[index + 2]) : 0
            let group = first << 16 | second << 8 | third
            let characters = min(4, 22 - written)
            for position in 0..<characters {
                buffer[written + position] = alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)]
            }
            written += characters
            index += 3
        }
    }

}
