import Foundation
import SlateCore

/// One operation a ``FaultSweep`` runs under every fault: how to build the database it starts
/// from, how to run it through a ``FaultInjector``, and what must hold afterwards.
///
/// ```swift
/// struct InsertTransaction: FaultScenario {
///     func prepare(at path: String) throws {
///         let db = try Database(path: path)
///         try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
///     }
///     func run(_ context: FaultRunContext) throws -> Bool {
///         let db = try Database(location: context.location)
///         defer { try? db.close() }
///         try db.transaction { try db.execute(sql: "INSERT INTO t(value) VALUES ('a'), ('b')") }
///         return true
///     }
///     func verify(_ db: Database, outcome: Result<Bool, any Error>, context: FaultRunContext) throws {
///         let count = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t")
///         if case .success = outcome, count != 2 { throw FaultIssue(.lostCommit, "the committed rows are missing") }
///         if count != 0 && count != 2 { throw FaultIssue(.halfApplied, "\(count) of 2 rows") }
///     }
/// }
/// ```
public protocol FaultScenario {
    /// What a successful run returns, handed to ``verify(_:outcome:context:)``.
    associatedtype Outcome

    /// Builds, without faults, the database at `path` that every run starts from.
    func prepare(at path: String) throws

    /// Whether ``run(_:)`` calls ``FaultRunContext/startFaults()`` itself, after work that is not
    /// part of the operation swept (opening a pool, writing the WAL a checkpoint copies). Default
    /// `false`: the fault is scheduled, and the calls counted, from the start of ``run(_:)``.
    var startsFaultsItself: Bool { get }

    /// Runs the operation on the database at ``FaultRunContext/path``, through the connections
    /// it opens at ``FaultRunContext/location``. It must close them before it returns or throws.
    /// When the operation fails, ``FaultRunContext/probe(after:_:)`` checks that the connection
    /// still works.
    func run(_ context: FaultRunContext) throws -> Outcome

    /// Opens the database after a run, without faults (default: `Database(path:)`); SQLCipher
    /// scenarios give the key.
    func open(at path: String, context: FaultRunContext) throws -> Database

    /// Checks `db` (opened with ``open(at:context:)``, after `PRAGMA integrity_check` passed) against
    /// the run's outcome. Throws a ``FaultIssue`` for what does not hold; any other error counts as
    /// a failed verification.
    func verify(_ db: Database, outcome: Result<Outcome, any Error>, context: FaultRunContext) throws

    /// The ``DatabaseError`` behind an error the operation threw, to check its code (default: the
    /// error itself, when it is one).
    func databaseError(in error: any Error) -> DatabaseError?
}

extension FaultScenario {
    public var startsFaultsItself: Bool { false }

    public func open(at path: String, context: FaultRunContext) throws -> Database {
        try Database(path: path)
    }

    public func databaseError(in error: any Error) -> DatabaseError? {
        error as? DatabaseError
    }
}

/// What a run of a ``FaultScenario`` found wrong.
public struct FaultIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of findings, one per promise of `docs/RELIABILITY.md`.
    public enum Category: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `PRAGMA integrity_check` did not answer `ok`, or the database no longer opens.
        case integrity
        /// A transaction reported as committed is missing.
        case lostCommit
        /// Work reported as failed (or as done) is there in part.
        case halfApplied
        /// An operation returned a result that is not the right one.
        case wrongResult
        /// An error without SQLite's code for the fault (`SQLITE_IOERR_*`, `SQLITE_FULL`,
        /// `SQLITE_CANTOPEN`), or an error where no fault was injected.
        case unclearError
        /// The connection failed after the fault had passed, without saying it must be reopened.
        case unusableConnection
        /// The check itself failed (an error thrown by the verification).
        case verification

        public var description: String { rawValue }
    }

    /// What kind of finding.
    public var category: Category
    /// What was found.
    public var message: String
    /// The fault of the run, filled in by the sweep.
    public var fault: FaultInjector.Fault?

    /// Creates a finding.
    public init(_ category: Category, _ message: String) {
        self.category = category
        self.message = message
    }

    public var description: String {
        "\(category): \(message)" + (fault.map { " [\($0)]" } ?? "")
    }
}

/// One run of a ``FaultScenario``: where the database is, the injector, the fault scheduled, and
/// what the run found along the way.
public final class FaultRunContext {
    /// The injector; its schedule is set before ``FaultScenario/run(_:)``.
    public let injector: FaultInjector
    /// The database file of this run.
    public let path: String
    /// The fault scheduled, or `nil` for the counting run.
    public let fault: FaultInjector.Fault?
    /// The findings recorded during the run.
    public private(set) var issues: [FaultIssue] = []
    /// Named counters the scenario adds to (such as "commits checked"), summed over the sweep.
    public private(set) var tallies: [String: Int] = [:]
    /// What the operation reported as done, in order (committed transactions, applied
    /// migrations): ``FaultScenario/verify(_:outcome:context:)`` must find each in the database.
    public private(set) var done: [String] = []
    /// What the operation started, in order: what was started and not reported done may be in the
    /// database wholly or not at all.
    public private(set) var attempted: [String] = []

    init(injector: FaultInjector, path: String, fault: FaultInjector.Fault?) {
        self.injector = injector
        self.path = path
        self.fault = fault
    }

    /// The database's location through the injector's VFS.
    public var location: Database.Location { injector.location(ofFile: path) }

    /// The location of another file of this run (a backup's destination, an export), through the
    /// injector's VFS.
    public func location(ofSibling name: String) -> Database.Location {
        injector.location(ofFile: sibling(name))
    }

    /// The path of another file in this run's directory.
    public func sibling(_ name: String) -> String {
        (path as NSString).deletingLastPathComponent + "/" + name
    }

    /// Starts counting calls from zero and schedules the run's fault, for a scenario whose
    /// ``FaultScenario/startsFaultsItself`` is `true`.
    public func startFaults() {
        injector.schedule(nil)
        injector.resetCounts()
        injector.schedule(fault)
    }

    /// Notes that the operation started `item` (a transaction, a migration).
    public func attempt(_ item: String) {
        attempted.append(item)
    }

    /// Notes that the operation reported `item` as done (committed, applied).
    public func reportDone(_ item: String) {
        done.append(item)
    }

    /// Records a finding.
    public func record(_ issue: FaultIssue) {
        issues.append(issue)
    }

    /// Adds `amount` to the counter `name`.
    public func tally(_ name: String, _ amount: Int = 1) {
        tallies[name, default: 0] += amount
    }

    /// After the operation failed with `error`: stops injecting faults and runs `probe` on the
    /// connection that failed (a read and a small write, say), unless the power is off (the
    /// connection then fails for good, with `SQLITE_IOERR`). A probe that throws is recorded as
    /// ``FaultIssue/Category/unusableConnection``, unless its error says the connection must be
    /// reopened.
    public func probe(after failure: any Error, _ probe: () throws -> Void) {
        injector.schedule(nil)
        guard !injector.isPoweredOff else { return }
        do {
            try probe()
            tally("connections probed after a failure")
        } catch {
            let text = String(describing: error)
            if text.contains("reopen") {
                tally("connections that asked to be reopened")
            } else {
                record(FaultIssue(.unusableConnection, "after \(failure), the connection failed: \(text)"))
            }
        }
    }
}
