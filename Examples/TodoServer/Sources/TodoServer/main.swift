import Foundation
import TodoServerKit

// Reads the settings from the environment, builds the app and runs it until SIGTERM or SIGINT,
// which shut it down gracefully: the server stops taking requests and finishes those in flight,
// then the database finishes its work, checkpoints and closes. A database that cannot be opened
// stops the server at start with a message that says why (exit status 1).
do {
    let configuration = try AppConfiguration.fromEnvironment()
    // The to-do API at the root, and the sync server of issue 35 under /sync.
    let app = try await buildApplication(
        configuration, routeGroups: [TodoRoutes(), SyncRoutes(dataDirectory: configuration.dataDirectory)])
    try await app.runService()
} catch {
    FileHandle.standardError.write(Data("TodoServer: \(error)\n".utf8))
    exit(1)
}
