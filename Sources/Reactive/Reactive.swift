// The Reactive module. See README.md for the module graph.
