// The benchmark's entry point; the work lives in `Benchmarks` so that nothing here is main-actor state.
Benchmarks.run()
