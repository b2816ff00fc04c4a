internal import Foundation

#if SCREENPLAY_FUZZING
    /// libFuzzer's entry point, built with `-sanitize=fuzzer` (see the Makefile's `fuzz` target).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        FuzzTargets.run(ProcessInfo.processInfo.environment["SCREENPLAY_FUZZ_TARGET"] ?? "", bytes)
        return 0
    }
#else
    /// Without libFuzzer: replays every file of the corpus directories given as `target=directory` arguments, so
    /// each kept case (crashes included) runs in an ordinary build.
    @main struct ReplayCorpus {
        static func main() throws {
            var count = 0
            for argument in CommandLine.arguments.dropFirst() {
                let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { fatalError("usage: ScreenplayFuzz target=directory ...") }
                for name in try FileManager.default.contentsOfDirectory(atPath: parts[1]).sorted() {
                    let data = try Data(contentsOf: URL(fileURLWithPath: parts[1] + "/" + name))
                    FuzzTargets.run(parts[0], Array(data))
                    count += 1
                }
            }
            print("replayed \(count) inputs")
        }
    }
#endif
