// The ScreenplayTesting module. See README.md for the module graph.
