import Testing

@testable import Screenplay

/// The hash an unknown name is checked against: it costs what a real hash of the same rounds costs, and no password
/// verifies it, although no derivation made it.
@Suite struct PasswordDecoyTests {
    @Test func aDecoyHasTheRoundsAskedARandomSaltAndKeyAndVerifiesNoPassword() {
        let decoy = PasswordHash.decoy(iterations: 1000)
        let other = PasswordHash.decoy(iterations: 1000)
        #expect(decoy.iterations == 1000)
        #expect(decoy.salt.count == 16 && decoy.key.count == 32)
        #expect(decoy.salt != other.salt && decoy.key != other.key)
        for password in ["", "correct horse", String(repeating: "a", count: 1000)] {
            #expect(!decoy.verifies(password))
        }
        // Its stored form reads back as a hash of its rounds, as a real one does.
        #expect((try? PasswordHash(decoy.description)) == decoy)
    }
}
