// The MovieApp module. See README.md for the module graph.
