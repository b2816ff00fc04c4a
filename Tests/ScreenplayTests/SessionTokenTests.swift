import Testing

@testable import Screenplay

/// Session ids and CSRF tokens: 128 random bits each, drawn from a pool the kernel refills 256 bytes at a time.
@Suite struct SessionTokenTests {
    @Test func tokensAcrossManyRefillsAreDistinctAndURLSafe() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var tokens: Set<String> = []
        var seen: Set<Character> = []
        // 16 tokens a refill: 2,000 tokens go through 125 of them.
        for _ in 0..<2_000 {
            let token = SessionToken.make()
            #expect(token.count == 22)
            #expect(token.allSatisfy(alphabet.contains))
            seen.formUnion(token)
            tokens.insert(token)
        }
        #expect(tokens.count == 2_000)
        // 44,000 characters: every one of the 64 turns up unless the bits are far from uniform.
        #expect(seen == alphabet)
    }

    @Test func thePoolHandsOutEachWordOnce() {
        var pool = RandomPool()
        var words: Set<UInt64> = []
        for _ in 0..<100 {
            let (first, second) = pool.take()
            words.insert(first)
            words.insert(second)
        }
        // 200 draws of 64 random bits: a repeat (or a zero left by a wiped word) would mean the pool reused one.
        #expect(words.count == 200)
        #expect(!words.contains(0))
    }
}
