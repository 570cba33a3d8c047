import Foundation
import Hummingbird
import InMemoryTracing
import Logging
import PostgresNIO
import ServiceLifecycle
import Slate
import SlateLifecycle
import SlatePostgres
import SlateTelemetry
import Tracing

/// What every request handler of the app gets.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Bodies larger than this are refused with 413.
    public static let maximumBodySize = 64 * 1024
    public var maxUploadSize: Int { Self.maximumBodySize }
}

/// What route groups share: the database, the store, the app's logger.
public struct AppServices: Sendable {
    public let database: TodoDatabase
    public let store: TodoStore
    public let logger: Logger
}

/// A group of routes the application mounts under its own path prefix, with the migrations its
/// tables need. The to-do API (``TodoRoutes``) is one; others (sync, issue 35) mount beside it:
///
/// ```swift
/// let app = try await buildApplication(
///     configuration, routeGroups: [TodoRoutes(), SyncRoutes(dataDirectory: configuration.dataDirectory)])
/// ```
public protocol RouteGroup: Sendable {
    /// The path the group's routes are under (`""` for the root, `"sync"` …).
    var pathPrefix: String { get }
    /// Adds the group's routes; an error stops the server at start (a ``StartupError`` says why).
    func addRoutes(to group: RouterGroup<AppRequestContext>, services: AppServices) throws
    /// Registers the migrations of the group's tables, on SQLite and on PostgreSQL; they run at
    /// boot after the to-do API's.
    func registerMigrations(sqlite: inout Migrator, postgreSQL: inout PostgreSQLMigrator)
}

extension RouteGroup {
    public func registerMigrations(sqlite: inout Migrator, postgreSQL: inout PostgreSQLMigrator) {}
}

/// Builds the application: opens the database (SQLite in the data directory, or PostgreSQL when
/// `DATABASE_URL` is set), migrates it at boot, mounts the route groups, and runs the database as
/// a service that shuts down after the HTTP server: in-flight requests finish, the WAL is
/// checkpointed, connections close.
///
/// - Throws: ``StartupError`` when the database cannot be opened, with a message that says why.
public func buildApplication(
    _ configuration: AppConfiguration, routeGroups: [any RouteGroup] = [TodoRoutes()]
) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "todo-server")
    logger.logLevel = configuration.logLevel
    let tracing = Observability(configuration: configuration, logger: logger)

    var sqliteMigrator = TodoMigrations.sqlite
    var postgreSQLMigrator = TodoMigrations.postgreSQL
    for group in routeGroups { group.registerMigrations(sqlite: &sqliteMigrator, postgreSQL: &postgreSQLMigrator) }

    let database: TodoDatabase
    var services: [any Service] = tracing.services
    var beforeStart: [@Sendable () async throws -> Void] = []
    if let url = configuration.databaseURL {
        let (pg, pgConfiguration) = try PostgreSQLConnection.database(
            url: url, logger: logger, telemetry: tracing.telemetry, gracePeriod: configuration.shutdownGracePeriod)
        database = .postgreSQL(pg)
        services.append(pg)  // runs the client; shuts down after the HTTP server
        let migrator = postgreSQLMigrator
        beforeStart.append {
            do {
                // One connection first: an unreachable server or a wrong socket path fails the
                // start at once with the cause, where the pool would retry for 60 seconds.
                try await PostgreSQLDatabase.checkConnection(pgConfiguration)
                try await migrator.migrate(pg)
            } catch {
                throw StartupError(
                    "cannot use the PostgreSQL database of DATABASE_URL (\(PostgreSQLConnection.redacted(url))): \(error)"
                )
            }
        }
    } else {
        let pool = try openSQLite(configuration, telemetry: tracing.telemetry, migrator: sqliteMigrator)
        database = .sqlite(pool)
        services.append(pool.service(gracePeriod: configuration.shutdownGracePeriod, logger: logger))
    }

    let appServices = AppServices(database: database, store: TodoStore(database: database), logger: logger)
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: LogRequestsMiddleware(.info))
    router.add(middleware: TracingMiddleware())
    for group in routeGroups {
        try group.addRoutes(to: router.group(RouterPath(group.pathPrefix)), services: appServices)
    }

    var app = Application(
        router: router,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "TodoServer"),
        services: services,
        onServerRunning: { channel in
            // The port, for scripts that start the server on port 0.
            let line = "TodoServer listening on \(channel.localAddress?.description ?? "?") (\(database.engine))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        },
        logger: logger)
    for step in beforeStart { app.beforeServerStarts(perform: step) }
    return app
}

/// Opens the SQLite pool in the data directory and migrates it, or explains why it cannot.
private func openSQLite(
    _ configuration: AppConfiguration, telemetry: DatabaseTelemetry?, migrator: Migrator
) throws -> DatabasePool {
    let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
    let path = directory.appendingPathComponent("todo.sqlite").path
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
        throw StartupError("cannot create the data directory \(directory.path): \(error.localizedDescription)")
    }
    var database = Database.Configuration()
    database.label = "todo"
    database.instrumentation = telemetry
    do {
        let pool = try DatabasePool(path: path, configuration: database)
        try migrator.migrate(pool)
        return pool
    } catch {
        throw StartupError("cannot open the SQLite database at \(path): \(error)")
    }
}

/// Why the server cannot start.
public struct StartupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
