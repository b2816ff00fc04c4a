/// The sign-in key a store makes when it has none (``MovieStore/signInKey()``).
enum SignInKey {
    /// A new key: 32 random bytes from the system's generator, written as 64 hexadecimal digits (the sign-in asks for
    /// 32 characters or more).
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
