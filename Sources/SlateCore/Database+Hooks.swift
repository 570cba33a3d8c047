import CSQLite

// MARK: - Public hook types

/// What a commit observer decides about the transaction that is about to commit.
public enum CommitDecision: Sendable, Hashable {
    /// Lets the commit go ahead.
    case proceed
    /// Turns the commit into a rollback. The `COMMIT` fails with
    /// ``ResultCode/constraintCommitHook``.
    case veto
}

/// One row change reported to the observers registered with ``Database/observeChanges(_:)``.
public struct DatabaseChange: Sendable, Hashable, CustomStringConvertible {
    /// What happened to a row.
    public enum Kind: Sendable, Hashable {
        /// A row was inserted (`SQLITE_INSERT`).
        case insert
        /// A row was updated (`SQLITE_UPDATE`).
        case update
        /// A row was deleted (`SQLITE_DELETE`).
        case delete
    }

    /// What happened to the row.
    public var kind: Kind
    /// The schema the table belongs to: `main`, `temp`, or the name of an attached database.
    public var databaseName: String
    /// The name of the changed table.
    public var tableName: String
    /// The rowid of the changed row.
    public var rowID: Int64

    /// Creates a change description.
    public init(kind: Kind, databaseName: String, tableName: String, rowID: Int64) {
        self.kind = kind
        self.databaseName = databaseName
        self.tableName = tableName
        self.rowID = rowID
    }

    /// A short description such as `insert main.player #3`.
    public var description: String { "\(kind) \(databaseName).\(tableName) #\(rowID)" }
}

/// The action an authorizer is asked about: one of SQLite's authorizer action codes, from
/// `SQLITE_CREATE_INDEX` to `SQLITE_RECURSIVE`.
///
/// The meaning of ``AuthorizationRequest/firstParameter`` and
/// ``AuthorizationRequest/secondParameter`` depends on the action; each constant documents them.
public struct AuthorizerAction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric action code, as SQLite passes it to the authorizer.
    public let rawValue: Int32

    /// Creates an action from its numeric code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SQLITE_CREATE_INDEX`: index name, table name.
    public static let createIndex = AuthorizerAction(rawValue: SQLITE_CREATE_INDEX)
    /// `SQLITE_CREATE_TABLE`: table name, `nil`.
    public static let createTable = AuthorizerAction(rawValue: SQLITE_CREATE_TABLE)
    /// `SQLITE_CREATE_TEMP_INDEX`: index name, table name.
    public static let createTemporaryIndex = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_INDEX)
    /// `SQLITE_CREATE_TEMP_TABLE`: table name, `nil`.
    public static let createTemporaryTable = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_TABLE)
    /// `SQLITE_CREATE_TEMP_TRIGGER`: trigger name, table name.
    public static let createTemporaryTrigger = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_TRIGGER)
    /// `SQLITE_CREATE_TEMP_VIEW`: view name, `nil`.
    public static let createTemporaryView = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_VIEW)
    /// `SQLITE_CREATE_TRIGGER`: trigger name, table name.
    public static let createTrigger = AuthorizerAction(rawValue: SQLITE_CREATE_TRIGGER)
    /// `SQLITE_CREATE_VIEW`: view name, `nil`.
    public static let createView = AuthorizerAction(rawValue: SQLITE_CREATE_VIEW)
    /// `SQLITE_DELETE`: table name, `nil`.
    public static let delete = AuthorizerAction(rawValue: SQLITE_DELETE)
    /// `SQLITE_DROP_INDEX`: index name, table name.
    public static let dropIndex = AuthorizerAction(rawValue: SQLITE_DROP_INDEX)
    /// `SQLITE_DROP_TABLE`: table name, `nil`.
    public static let dropTable = AuthorizerAction(rawValue: SQLITE_DROP_TABLE)
    /// `SQLITE_DROP_TEMP_INDEX`: index name, table name.
    public static let dropTemporaryIndex = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_INDEX)
    /// `SQLITE_DROP_TEMP_TABLE`: table name, `nil`.
    public static let dropTemporaryTable = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_TABLE)
    /// `SQLITE_DROP_TEMP_TRIGGER`: trigger name, table name.
    public static let dropTemporaryTrigger = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_TRIGGER)
    /// `SQLITE_DROP_TEMP_VIEW`: view name, `nil`.
    public static let dropTemporaryView = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_VIEW)
    /// `SQLITE_DROP_TRIGGER`: trigger name, table name.
    public static let dropTrigger = AuthorizerAction(rawValue: SQLITE_DROP_TRIGGER)
    /// `SQLITE_DROP_VIEW`: view name, `nil`.
    public static let dropView = AuthorizerAction(rawValue: SQLITE_DROP_VIEW)
    /// `SQLITE_INSERT`: table name, `nil`.
    public static let insert = AuthorizerAction(rawValue: SQLITE_INSERT)
    /// `SQLITE_PRAGMA`: pragma name, its argument or `nil`.
    public static let pragma = AuthorizerAction(rawValue: SQLITE_PRAGMA)
    /// `SQLITE_READ`: table name, column name. Answering ``AuthorizationDecision/ignore`` reads
    /// the column as `NULL`.
    public static let read = AuthorizerAction(rawValue: SQLITE_READ)
    /// `SQLITE_SELECT`: `nil`, `nil`.
    public static let select = AuthorizerAction(rawValue: SQLITE_SELECT)
    /// `SQLITE_TRANSACTION`: the operation (`BEGIN`, `COMMIT`, `ROLLBACK`), `nil`.
    public static let transaction = AuthorizerAction(rawValue: SQLITE_TRANSACTION)
    /// `SQLITE_UPDATE`: table name, column name.
    public static let update = AuthorizerAction(rawValue: SQLITE_UPDATE)
    /// `SQLITE_ATTACH`: file name, `nil`.
    public static let attach = AuthorizerAction(rawValue: SQLITE_ATTACH)
    /// `SQLITE_DETACH`: database name, `nil`.
    public static let detach = AuthorizerAction(rawValue: SQLITE_DETACH)
    /// `SQLITE_ALTER_TABLE`: database name, table name.
    public static let alterTable = AuthorizerAction(rawValue: SQLITE_ALTER_TABLE)
    /// `SQLITE_REINDEX`: index name, `nil`.
    public static let reindex = AuthorizerAction(rawValue: SQLITE_REINDEX)
    /// `SQLITE_ANALYZE`: table name, `nil`.
    public static let analyze = AuthorizerAction(rawValue: SQLITE_ANALYZE)
    /// `SQLITE_CREATE_VTABLE`: table name, module name.
    public static let createVirtualTable = AuthorizerAction(rawValue: SQLITE_CREATE_VTABLE)
    /// `SQLITE_DROP_VTABLE`: table name, module name.
    public static let dropVirtualTable = AuthorizerAction(rawValue: SQLITE_DROP_VTABLE)
    /// `SQLITE_FUNCTION`: `nil`, function name.
    public static let function = AuthorizerAction(rawValue: SQLITE_FUNCTION)
    /// `SQLITE_SAVEPOINT`: the operation (`BEGIN`, `RELEASE`, `ROLLBACK`), savepoint name.
    public static let savepoint = AuthorizerAction(rawValue: SQLITE_SAVEPOINT)
    /// `SQLITE_RECURSIVE`: `nil`, `nil`.
    public static let recursive = AuthorizerAction(rawValue: SQLITE_RECURSIVE)

    private static let names: [Int32: String] = [
        SQLITE_CREATE_INDEX: "createIndex", SQLITE_CREATE_TABLE: "createTable",
        SQLITE_CREATE_TEMP_INDEX: "createTemporaryIndex", SQLITE_CREATE_TEMP_TABLE: "createTemporaryTable",
        SQLITE_CREATE_TEMP_TRIGGER: "createTemporaryTrigger", SQLITE_CREATE_TEMP_VIEW: "createTemporaryView",
        SQLITE_CREATE_TRIGGER: "createTrigger", SQLITE_CREATE_VIEW: "createView", SQLITE_DELETE: "delete",
        SQLITE_DROP_INDEX: "dropIndex", SQLITE_DROP_TABLE: "dropTable",
        SQLITE_DROP_TEMP_INDEX: "dropTemporaryIndex", SQLITE_DROP_TEMP_TABLE: "dropTemporaryTable",
        SQLITE_DROP_TEMP_TRIGGER: "dropTemporaryTrigger", SQLITE_DROP_TEMP_VIEW: "dropTemporaryView",
        SQLITE_DROP_TRIGGER: "dropTrigger", SQLITE_DROP_VIEW: "dropView", SQLITE_INSERT: "insert",
        SQLITE_PRAGMA: "pragma", SQLITE_READ: "read", SQLITE_SELECT: "select",
        SQLITE_TRANSACTION: "transaction", SQLITE_UPDATE: "update", SQLITE_ATTACH: "attach",
        SQLITE_DETACH: "detach", SQLITE_ALTER_TABLE: "alterTable", SQLITE_REINDEX: "reindex",
        SQLITE_ANALYZE: "analyze", SQLITE_CREATE_VTABLE: "createVirtualTable",
        SQLITE_DROP_VTABLE: "dropVirtualTable", SQLITE_FUNCTION: "function",
        SQLITE_SAVEPOINT: "savepoint", SQLITE_RECURSIVE: "recursive",
    ]

    /// The action's name, such as `read`, or its code for actions this version does not know.
    public var description: String { Self.names[rawValue] ?? "action \(rawValue)" }
}

/// What an authorizer is asked: an action and the four strings SQLite passes with it.
public struct AuthorizationRequest: Sendable, Hashable, CustomStringConvertible {
    /// The action the statement being prepared wants to perform.
    public var action: AuthorizerAction
    /// The action's first parameter, such as a table name; see ``AuthorizerAction``.
    public var firstParameter: String?
    /// The action's second parameter, such as a column name; see ``AuthorizerAction``.
    public var secondParameter: String?
    /// The schema concerned (`main`, `temp`, an attached name), when there is one.
    public var databaseName: String?
    /// The innermost trigger or view responsible for the access, or `nil` when the access comes
    /// straight from the SQL being prepared.
    public var triggerOrViewName: String?

    /// Creates a request.
    public init(
        action: AuthorizerAction,
        firstParameter: String? = nil,
        secondParameter: String? = nil,
        databaseName: String? = nil,
        triggerOrViewName: String? = nil
    ) {
        self.action = action
        self.firstParameter = firstParameter
        self.secondParameter = secondParameter
        self.databaseName = databaseName
        self.triggerOrViewName = triggerOrViewName
    }

    /// A short description such as `read(player, name) in main`.
    public var description: String {
        var text = "\(action)(\(firstParameter ?? "nil"), \(secondParameter ?? "nil"))"
        if let databaseName { text += " in \(databaseName)" }
        if let triggerOrViewName { text += " via \(triggerOrViewName)" }
        return text
    }
}

/// An authorizer's answer.
///
/// With several authorizers, the strictest answer wins: ``deny`` over ``ignore`` over ``allow``.
public enum AuthorizationDecision: Sendable, Hashable {
    /// Allows the action (`SQLITE_OK`).
    case allow
    /// Rejects the whole statement: preparing it fails with ``ResultCode/authorization``
    /// (`SQLITE_DENY`).
    case deny
    /// Disallows the action but lets the statement be prepared (`SQLITE_IGNORE`): a denied
    /// ``AuthorizerAction/read`` reads `NULL`, a denied ``AuthorizerAction/delete`` disables the
    /// truncate optimization; for most other actions SQLite rejects the statement.
    case ignore
}

/// A registered hook observer. Call ``cancel()`` to remove it.
///
/// Dropping the observation does not remove the observer: it stays registered until you cancel
/// it or the connection closes. An observation is tied to its connection and, like it, is used
/// from one thread at a time.
public final class HookObservation {
    private weak var registry: HookRegistry?
    private let kind: HookRegistry.Kind
    private let id: Int

    /// Whether ``cancel()`` was called or the connection has closed.
    public var isCancelled: Bool {
        guard let registry else { return true }
        return !registry.contains(id: id, kind: kind)
    }

    init(registry: HookRegistry?, kind: HookRegistry.Kind, id: Int) {
        self.registry = registry
        self.kind = kind
        self.id = id
    }

    /// Removes the observer. When it was the last observer of its kind, Slate uninstalls the
    /// SQLite callback. Cancelling twice, or after the connection closed, does nothing.
    public func cancel() {
        registry?.remove(id: id, kind: kind)
        registry = nil
    }
}

// MARK: - Database API

extension Database {
    /// Registers an observer called just before each transaction commits, including the implicit
    /// transaction of a statement run outside ``transaction(_:_:)``.
    ///
    /// If any observer answers ``CommitDecision/veto``, the commit turns into a rollback: the
    /// `COMMIT` (or the statement that autocommits) fails with
    /// ``ResultCode/constraintCommitHook``, and the rollback observers are called. Every observer
    /// is called, even after one has vetoed.
    ///
    /// Observers run synchronously on the connection's thread, in registration order, while
    /// SQLite is committing. They must not use the connection: no queries, no statements.
    ///
    /// - Returns: An observation whose ``HookObservation/cancel()`` removes the observer.
    @discardableResult
    public func observeCommits(_ observer: @escaping () -> CommitDecision) -> HookObservation {
        hooks.add(.commit(observer), connection: handle)
    }

    /// Registers an observer called when a transaction rolls back: an explicit `ROLLBACK`, a
    /// failed ``transaction(_:_:)``, a vetoed commit, or a statement that fails and undoes its
    /// implicit transaction. Rolling back to a savepoint does not call it.
    ///
    /// Observers run synchronously on the connection's thread, in registration order. They must
    /// not use the connection.
    ///
    /// - Returns: An observation whose ``HookObservation/cancel()`` removes the observer.
    @discardableResult
    public func observeRollbacks(_ observer: @escaping () -> Void) -> HookObservation {
        hooks.add(.rollback(observer), connection: handle)
    }

    /// Registers an observer called for each row inserted, updated or deleted in a rowid table
    /// (SQLite's update hook).
    ///
    /// SQLite does not report changes to `WITHOUT ROWID` tables, changes to internal tables such
    /// as `sqlite_sequence`, rows deleted by the `REPLACE` conflict resolution, or rows deleted
    /// by the truncate optimization of a `DELETE` without `WHERE`. Changes are reported as they
    /// happen, before the transaction commits; pair with ``observeCommits(_:)`` and
    /// ``observeRollbacks(_:)`` to learn their fate.
    ///
    /// Observers run synchronously on the connection's thread, in registration order, in the
    /// middle of the statement that changes the row. They must not use the connection.
    ///
    /// - Returns: An observation whose ``HookObservation/cancel()`` removes the observer.
    @discardableResult
    public func observeChanges(_ observer: @escaping (DatabaseChange) -> Void) -> HookObservation {
        hooks.add(.update(observer), connection: handle)
    }

    /// Registers an authorizer, asked about every action of every statement while it is
    /// prepared.
    ///
    /// With several authorizers, every one is asked and the strictest answer wins:
    /// ``AuthorizationDecision/deny`` over ``AuthorizationDecision/ignore`` over
    /// ``AuthorizationDecision/allow``. A denied statement fails to prepare with
    /// ``ResultCode/authorization``. Adding or removing an authorizer makes SQLite compile the
    /// connection's prepared (and cached) statements again before their next run, so they follow
    /// the current authorizers; a statement that is now denied fails when it runs.
    ///
    /// Authorizers run synchronously on the connection's thread while SQLite compiles a
    /// statement. They must not use the connection.
    ///
    /// - Returns: An observation whose ``HookObservation/cancel()`` removes the authorizer.
    @discardableResult
    public func addAuthorizer(
        _ authorizer: @escaping (AuthorizationRequest) -> AuthorizationDecision
    ) -> HookObservation {
        hooks.add(.authorizer(authorizer), connection: handle)
    }
}
