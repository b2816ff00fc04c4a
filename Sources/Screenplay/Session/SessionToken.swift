/// Unguessable tokens for session ids and CSRF tokens.
enum SessionToken {
    /// 128 random bits from the system's secure generator, as 22 URL-safe base64 characters.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bits = (generator.next() as UInt64, generator.next() as UInt64)
        // Written straight into the string's storage: two tokens per page, no array in between.
        return String(unsafeUninitializedCapacity: 22) { buffer in
            for index in 0..<22 {
                let value: UInt64
                if index < 11 {
                    value = bits.0 & 0x3F
                    bits.0 >>= 6
                } else {
                    value = bits.1 & 0x3F
                    bits.1 >>= 6
                }
                buffer[index] = alphabet[Int(value)]
            }
            return 22
        }
    }

    /// The 64 characters of a token, URL-safe base64's.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
