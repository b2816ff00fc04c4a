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
