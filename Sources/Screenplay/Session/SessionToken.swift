/// Unguessable tokens for session ids and CSRF tokens.
enum SessionToken {
    /// 128 random bits from the system's secure generator, as 22 URL-safe base64 characters.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes: [UInt8] = []
        bytes.reserveCapacity(22)
        var bits = (high, low)
        for index in 0..<22 {
            let value: UInt64
            if index < 11 {
                value = bits.0 & 0x3F
                bits.0 >>= 6
            } else {
                value = bits.1 & 0x3F
                bits.1 >>= 6
            }
            bytes.append(alphabet[Int(value)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Compares two tokens in time that does not depend on where they differ.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
