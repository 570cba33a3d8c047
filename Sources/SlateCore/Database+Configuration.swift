import Foundation

extension Database {
    /// Where a connection's data lives.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// A database file at a filesystem path.
        case file(String)
        /// A private in-memory database that disappears when the connection closes.
        case inMemory
        /// A private on-disk temporary database that SQLite deletes when the connection closes.
        case temporary
        /// A `file:` URI such as `file:data.db?mode=ro&cache=private`; opened with `SQLITE_OPEN_URI`.
        case uri(String)

        /// The filename passed to `sqlite3_open_v2`.
        var filename: String {
            switch self {
            case .file(let path): path
            case .inMemory: ":memory:"
            case .temporary: ""
            case .uri(let uri): uri
            }
        }

        public var description: String {
            switch self {
            case .file(let path): path
            case .inMemory: ":memory:"
            case .temporary: "(temporary)"
            case .uri(let uri): uri
            }
        }
    }

    /// How SQLite serializes access to one connection.
    public enum ThreadingMode: Sendable, Hashable {
        /// `SQLITE_OPEN_NOMUTEX`: no per-connection mutex. The fastest; safe because Slate never uses a
        /// connection from two threads at once (``DatabaseQueue`` and ``DatabasePool`` serialize it).
        case multiThread
        /// `SQLITE_OPEN_FULLMUTEX`: SQLite serializes every call on the connection.
        case serialized
        /// Whatever the SQLite library was compiled with.
        case `default`
    }

    /// How a connection opens and behaves. Every property has a sensible default.
    public struct Configuration: Sendable {
        /// Opens the database read-only (`SQLITE_OPEN_READONLY`). Default `false`.
        public var isReadOnly = false
        /// Creates the file when it does not exist (`SQLITE_OPEN_CREATE`). Ignored when read-only.
        /// Default `true`.
        public var createsFile = true
        /// Creates missing parent directories of a file location before opening. Default `false`:
        /// a missing directory is reported as a ``ResultCode/cantOpen`` error that names it.
        public var createsMissingDirectories = false
        /// The connection's threading mode. Default ``ThreadingMode/multiThread``.
        public var threadingMode: ThreadingMode = .multiThread
        /// Runs `PRAGMA foreign_keys = ON` after opening. Default `true`.
        public var foreignKeysEnabled = true
        /// How long SQLite retries when another connection holds a lock, in seconds, before it
        /// reports ``ResultCode/busy``. `nil` or `0` reports busy at once. Default 5 seconds.
        public var busyTimeout: Double? = 5
        /// How `Date` values are stored and read on this connection. Default
        /// ``DateStrategy/iso8601``, which SQLite's date and time functions understand.
        public var dateStrategy: DateStrategy = .iso8601
        /// How many prepared statements the connection keeps, keyed by SQL text. Default 256.
        public var statementCacheCapacity = 256
        /// Whether errors carry the values bound to the failing statement. Turn off when values may
        /// be sensitive and errors are logged. Default `true`.
        public var includesArgumentsInErrors = true
        /// Whether SQLite's legacy misfeature that reads a double-quoted name matching no column as a
        /// string literal stays on. Default `false`: `"name"` is always an identifier, so a
        /// misspelled column is an error instead of the text `'name'`. Turn it on only to query an
        /// existing database whose views or triggers use double quotes for strings.
        public var acceptsDoubleQuotedStringLiterals = false
        /// A label used in descriptions and thread names, for debugging.
        public var label: String?
        /// Receives the connection's statements, transactions, busy retries and checkpoints, and
        /// the waits of the queue or pool that owns it, for logging, tracing and metrics
        /// (`DatabaseTelemetry`, product `SlateTelemetry`). Default `nil`: nothing is reported and
        /// nothing is installed. See <doc:RunningInAServer>.
        public var instrumentation: (any DatabaseInstrumentation)?
        /// Work run once on every new connection after it opens, such as registering functions
        /// or collations or setting pragmas. ``DatabasePool`` runs it for each reader too.
        public var prepareDatabase: (@Sendable (Database) throws -> Void)?
        #if SQLCipher
            /// The key of an encrypted database (SQLCipher trait only). `nil`, the default, opens a
            /// plaintext database. Applied right after opening, before anything reads the file; a
            /// wrong key fails the initializer with ``ResultCode/notADatabase``. See
            /// <doc:Encryption>.
            public var key: EncryptionKey?
            /// SQLCipher's settings for opening files made with other settings or other SQLCipher
            /// versions (SQLCipher trait only). The defaults suit new databases.
            public var cipherSettings = CipherSettings()
        #endif

        /// Creates the default configuration.
        public init() {}
    }
}
