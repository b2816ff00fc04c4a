import Screenplay
import Testing

/// Default template names come from the class name, per class, however often they are asked for.
@Suite struct TemplateNameTests {
    final class ProfileViewController: ViewController {}
    final class Settings: ViewController {}

    @Test func theDefaultNameDropsTheSuffixAndStaysPerClass() {
        #expect(ProfileViewController.templateName == "Profile")
        #expect(Settings.templateName == "Settings")
        #expect(CounterViewController.templateName == "Counter")
    }
}

@Suite struct MissingTemplateTests {
    final class NowhereViewController: ViewController {}

    /// A screen whose template does not exist fails at registration, saying where it looked and what is there.
    @Test func aScreenWithoutATemplateSaysWhereItLooked() throws {
        let application = try Application(root: fixtureRoot)
        do {
            try application.screen("/nowhere", NowhereViewController.self) { _ in NowhereViewController() }
            Issue.record("registering a screen without a template succeeded")
        } catch {
            let message = "\(error)"
            #expect(message.contains("looked for \(fixtureRoot)/Templates/Nowhere.html"))
            #expect(message.contains("(there: Counter)"))
            #expect(message.contains("override templateName"))
        }
    }
}
