import MovieApp
import Screenplay
import Testing

@Suite struct MovieServerOptionsOperationsTests {
    @Test func operationsFlagsWinOverTheEnvironment() throws {
        let options = try MovieServerOptions.parse(
            ["--log-format", "json", "--metrics", "9100", "--dev", "--log-level=warning"],
            environment: ["LOG_FORMAT": "text", "METRICS": "off", "SCREENPLAY_DEV": "0"])
        let operations = options.operations
        #expect(operations.metrics == .port(9100))
        #expect(operations.logger.format == .json)
        #expect(operations.logger.level == .warning)
        #expect(operations.isDevelopment)
    }

    @Test func theEnvironmentConfiguresWhatFlagsLeaveOut() throws {
        let options = try MovieServerOptions.parse(
            [], environment: ["LOG_FORMAT": "json", "METRICS": "off", "SCREENPLAY_DEV": "1", "ACCESS_LOG": "0"])
        #expect(options.operations.metrics == .off)
        #expect(options.operations.logger.format == .json)
        #expect(options.isDevelopment)
        #expect(!options.accessLog)
    }

    @Test func defaultsServeMetricsOnTheMainPortAndLogRequestsAsText() throws {
        let options = try MovieServerOptions.parse([])
        #expect(options.operations.metrics == .main)
        #expect(options.operations.logger.format == .text)
        #expect(!options.isDevelopment)
        #expect(options.accessLog)
    }

    @Test func badValuesAreRefusedWithAMessage() {
        #expect(throws: MovieServerOptions.UsageError.self) { try MovieServerOptions.parse(["--log-format", "xml"]) }
        #expect(throws: MovieServerOptions.UsageError.self) {
            try MovieServerOptions.parse(["--metrics", "everywhere"])
        }
        #expect(throws: MovieServerOptions.UsageError.self) { try MovieServerOptions.parse(["--metrics", "70000"]) }
    }

    @Test func theDatabaseConnectionsFlagSizesThePostgreSQLPool() throws {
        #expect(try MovieServerOptions.parse([]).databaseConnections == PostgreSQLMovieStore.defaultConnections)
        #expect(try MovieServerOptions.parse(["--database-connections", "8"]).databaseConnections == 8)
        #expect(try MovieServerOptions.parse([], environment: ["DATABASE_CONNECTIONS": "2"]).databaseConnections == 2)
        #expect(throws: MovieServerOptions.UsageError.self) {
            try MovieServerOptions.parse(["--database-connections", "0"])
        }
        #expect(MovieServerOptions.usage.contains("--database-connections"))
    }

    @Test func helpListsEveryFlagAndEnvironmentVariable() {
        for name in [
            "--dev", "--log-format", "--metrics", "--log-level", "--access-log", "--no-access-log", "SCREENPLAY_DEV",
            "LOG_FORMAT", "METRICS", "LOG_LEVEL", "ACCESS_LOG",
        ] {
            #expect(MovieServerOptions.usage.contains(name))
        }
    }
}
