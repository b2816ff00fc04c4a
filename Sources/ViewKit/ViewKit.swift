// The ViewKit module. See README.md for the module graph.
