import Screenplay
import TodoApp

// The to-do app's executable: the common command line plus --accounts and --signin-secret, served until SIGTERM.
let options = ApplicationOptions.fromCommandLine(
    program: "todos", options: TodoServer.options, defaultRoot: TodoServer.resourceRoot,
    developmentRoot: TodoServer.sourceRoot)
let server = try TodoServer(options: options)
try server.application.run()
