import Screenplay
import Testing

@Suite struct ApplicationOptionsTests {
    private let database = ApplicationOptions.Option(
        flag: "--database", environment: "DATABASE", valueName: "FILE", help: "the database")

    @Test func flagsWinOverTheEnvironmentAndAppOptionsAreKept() throws {
        let options = try ApplicationOptions.parse(
            ["--port", "9000", "--database=other.sqlite", "--dev", "--dev-latency", "300"],
            environment: ["PORT": "8000", "HOST": "0.0.0.0", "DATABASE": "env.sqlite", "MAX_SESSIONS": "7"],
            program: "todo", options: [database])
        #expect(options.port == 9000)
        #expect(options.host == "0.0.0.0")
        #expect(options.values["--database"] == "other.sqlite")
        #expect(options.maxSessions == 7)
        #expect(options.sessions.capacity == 7)
        #expect(options.server.port == 9000)
        #expect(options.operations.isDevelopment)
        #expect(options.operations.developmentLatency == .milliseconds(300))
        let fromEnvironment = try ApplicationOptions.parse(
            [], environment: ["DATABASE": "env.sqlite"], program: "todo", options: [database])
        #expect(fromEnvironment.values["--database"] == "env.sqlite")
    }

    @Test func uploadLimitsTakeSizesWithUnitsAndRefuseNonsense() throws {
        let defaults = try ApplicationOptions.parse([], program: "todo")
        #expect(defaults.uploads.maxSize == 64 << 20)
        #expect(defaults.uploads.quota == 1 << 30)
        #expect(defaults.uploads.folder == "./.data/uploads")
        let options = try ApplicationOptions.parse(
            ["--upload-max-size", "16M", "--upload-folder", "/srv/uploads"], environment: ["UPLOAD_QUOTA": "2g"],
            program: "todo")
        #expect(options.uploads.maxSize == 16 << 20)
        #expect(options.uploads.quota == 2 << 30)
        #expect(options.uploads.folder == "/srv/uploads")
        #expect(try ApplicationOptions.parse(["--upload-max-size", "1000"], program: "todo").uploadMaxSize == 1000)
        for bad in ["0", "-1", "1.5M", "M", "12T", "2000G", "99999999999999999999"] {
            #expect(throws: ApplicationOptions.UsageError.self) {
                try ApplicationOptions.parse(["--upload-max-size", bad], program: "todo")
            }
        }
    }

    @Test func anAppsDefaultRootIsUsedUnlessTheCommandLineOrEnvironmentNamesOne() throws {
        let resources = "/opt/app/Resources"
        #expect(try ApplicationOptions.parse([], program: "todo", defaultRoot: resources).root == resources)
        #expect(try ApplicationOptions.parse(["--root", "."], program: "todo", defaultRoot: resources).root == ".")
        #expect(
            try ApplicationOptions.parse(
                [], environment: ["SCREENPLAY_ROOT": "/srv"], program: "todo", defaultRoot: resources
            ).root == "/srv")
        #expect(try ApplicationOptions.parse([], program: "todo").root == ".")
        #expect(
            ApplicationOptions.usage(program: "todo", defaultRoot: resources).contains("default the app's resources"))
        // With --dev, the sources' folder (when it holds Templates/), unless a root is named.
        let sources = fixtureRoot
        let dev = try ApplicationOptions.parse(
            ["--dev"], program: "todo", defaultRoot: resources, developmentRoot: sources)
        #expect(dev.root == sources)
        #expect(
            try ApplicationOptions.parse([], program: "todo", defaultRoot: resources, developmentRoot: sources).root
                == resources)
        #expect(
            try ApplicationOptions.parse(
                ["--dev", "--root", "/srv"], program: "todo", defaultRoot: resources, developmentRoot: sources
            ).root == "/srv")
        #expect(
            try ApplicationOptions.parse(
                ["--dev"], program: "todo", defaultRoot: resources, developmentRoot: "/no/such/folder"
            ).root == resources)
    }

    @Test func mistakesSayWhatIsWrong() {
        func message(_ arguments: [String]) -> String? {
            do {
                _ = try ApplicationOptions.parse(arguments, program: "todo", options: [database])
                return nil
            } catch {
                return error.isHelp ? "help" : error.message
            }
        }
        #expect(message(["--port", "x"]) == "--port must be a port number from 0 to 65535, got x")
        #expect(message(["--nope"]) == "unknown option --nope")
        #expect(message(["--database"]) == "--database needs a value")
        #expect(message(["--dev-latency", "300"]) == "--dev-latency is for development mode only: add --dev")
        #expect(message(["--help"]) == "help")
        let usage = ApplicationOptions.usage(program: "todo", options: [database])
        for flag in ["--host", "--port", "--root", "--database FILE", "--dev", "--dev-latency", "--metrics", "--help"] {
            #expect(usage.contains(flag))
        }
    }
}
