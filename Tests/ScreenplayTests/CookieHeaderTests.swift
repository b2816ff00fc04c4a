import Screenplay
import Testing

/// A `Set-Cookie` value as RFC 6265 wants it: the name as given (cookie-safe characters only), the value with every
/// other byte percent-encoded, then the attributes in a fixed order.
@Suite struct CookieHeaderTests {
    /// The encoding spelled out byte by byte: letters, digits, `-`, `_`, `.` and `~` as they are, anything else as
    /// `%XY` with uppercase digits.
    private static func encoded(_ value: String) -> String {
        value.utf8.map { byte -> String in
            let isSafe =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || [0x2D, 0x5F, 0x2E, 0x7E].contains(byte)
            if isSafe { return String(UnicodeScalar(byte)) }
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }

    @Test func valuesArePercentEncodedAndAttributesFollowInOrder() {
        let values = [
            "", "plain-Value_1.2~", "yes; and more", "\"quoted\", =,\\", "é漢🎬", "\u{0}\u{1F}\u{7F}", "%41",
            "a b\tc\r\n",
        ]
        for value in values {
            var cookie = Cookie(name: "screenplay_browser", value: value, maxAge: .seconds(365 * 24 * 3600))
            #expect(
                cookie.headerValue
                    == "screenplay_browser=\(Self.encoded(value)); Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax")
            cookie.maxAge = nil
            cookie.isHTTPOnly = false
            cookie.sameSite = .none
            cookie.path = "/account"
            #expect(
                cookie.headerValue == "screenplay_browser=\(Self.encoded(value)); Path=/account; SameSite=None; Secure")
        }
        var strict = Cookie(name: "s", value: "1", maxAge: .zero)
        strict.sameSite = .strict
        strict.isSecure = true
        #expect(strict.headerValue == "s=1; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure")
        #expect(Cookie(name: "bad name", value: "1").headerValue == nil)
        #expect(Cookie(name: "", value: "1").headerValue == nil)
    }

    @Test func namesValuesAndPathsAreWrittenFromSmallAndLargeStrings() {
        // Every kind of name byte the header allows, as it is; one byte outside them, or a name past the small
        // strings' fifteen bytes with one, refuses the cookie.
        #expect(Cookie(name: "Az09-_.", value: "v").headerValue == "Az09-_.=v; Path=/; HttpOnly; SameSite=Lax")
        #expect(Cookie(name: "naïve", value: "v").headerValue == nil)
        #expect(Cookie(name: "a_name_longer_than_fifteen;", value: "v").headerValue == nil)
        // Strings stored out of line (longer than fifteen bytes) and made at run time read like literals.
        let long = String(repeating: "ab", count: 20)
        var cookie = Cookie(name: "a_name_longer_than_fifteen", value: long + " é", maxAge: .seconds(7))
        cookie.path = "/" + long
        #expect(
            cookie.headerValue
                == "a_name_longer_than_fifteen=\(long)%20%C3%A9; Path=/\(long); Max-Age=7; HttpOnly; SameSite=Lax")
    }
}
