/// A screen that could not be built: the error, the screen, its template and the lifecycle steps reached (the last
/// one failed). Shown in full only on development error pages; production pages show a request id.
struct ScreenBuildFailure: Error, CustomStringConvertible {
    let error: any Error
    let controllerName: String
    let templateName: String
    let steps: [String]

    var description: String { "\(controllerName) failed at \(steps.last ?? "start"): \(error)" }
}
