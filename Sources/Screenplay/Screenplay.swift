// The Screenplay module. See README.md for the module graph.
