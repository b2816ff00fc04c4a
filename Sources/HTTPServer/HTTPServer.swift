// The HTTPServer module. See README.md for the module graph.
