import Foundation
import Slate

/// The input domains of the fuzzer.
public enum FuzzDomain: String, CaseIterable, Sendable {
    /// Real queries over Chinook and Northwind, mutated, through `execute`, `prepare` and the fetches.
    case sql
    /// Values of every supported Swift type, bound and read back as every type.
    case values
    /// Rows decoded into records that do not match them: live and copied rows, `Table` records,
    /// `CodableRecord`s.
    case decode
    /// Random schemas through `slate generate` (the `SlateGenerator` library).
    case schemas
    /// Damaged and made-up changesets and patchsets through the session extension's wrapper.
    case changesets
}

/// A crash-free lie, a wrong error, or anything else a case must not do.
public struct Finding: Sendable, CustomStringConvertible {
    public var domain: FuzzDomain
    public var caseIndex: Int
    public var seed: UInt64
    /// A short, stable label for grouping (`"lie: Int8 from REAL"`).
    public var label: String
    /// What happened, with the values involved (truncated).
    public var detail: String

    public var description: String {
        "[\(domain.rawValue) case \(caseIndex)] \(label): \(detail)\n    replay: slate-fuzz --domain \(domain.rawValue) --seed \(seed) --case \(caseIndex)"
    }
}

/// What one domain's cases did.
public struct DomainReport: Sendable {
    public var domain: FuzzDomain
    public var cases = 0
    /// Checks that gave the exact expected answer (a value, or a refusal where one was due).
    public var exact = 0
    /// Checks answered with a `DatabaseError` (allowed: a read may always refuse).
    public var refused = 0
    /// Lies on the ``KnownInexactRead`` list, by name.
    public var known: [KnownInexactRead: Int] = [:]
    /// The first example of each known lie.
    public var knownExamples: [KnownInexactRead: String] = [:]
    public var findings: [Finding] = []
    /// More counters, by name (statements run, schemas generated, files written…).
    public var counters: [String: Int] = [:]
    public var seconds: Double = 0

    public init(domain: FuzzDomain) { self.domain = domain }

    public var knownCount: Int { known.values.reduce(0, +) }

    mutating func count(_ name: String, _ amount: Int = 1) { counters[name, default: 0] += amount }

    mutating func recordKnown(_ issue: KnownInexactRead, _ example: @autoclosure () -> String) {
        known[issue, default: 0] += 1
        if knownExamples[issue] == nil { knownExamples[issue] = example() }
    }

    mutating func merge(_ other: DomainReport) {
        cases += other.cases
        exact += other.exact
        refused += other.refused
        for (issue, count) in other.known { known[issue, default: 0] += count }
        for (issue, example) in other.knownExamples where knownExamples[issue] == nil { knownExamples[issue] = example }
        findings += other.findings
        for (name, count) in other.counters { counters[name, default: 0] += count }
        seconds += other.seconds
    }
}

/// Where a case stands, for the crash report: a trap kills the process, so the case being run is
/// written to standard error by a signal handler (see ``CrashContext``).
public struct CaseContext {
    public var domain: FuzzDomain
    public var runSeed: UInt64
    public var index: Int
    public var report: DomainReport

    init(domain: FuzzDomain, runSeed: UInt64, index: Int, report: DomainReport) {
        self.domain = domain
        self.runSeed = runSeed
        self.index = index
        self.report = report
    }

    mutating func finding(_ label: String, _ detail: String) {
        report.findings.append(Finding(domain: domain, caseIndex: index, seed: runSeed, label: label, detail: detail))
    }
}

/// Short renderings of values for findings: never the whole of a large value.
enum Show {
    static func value(_ value: Any) -> String {
        switch value {
        case let data as Data: return bytes(Array(data))
        case let bytes as [UInt8]: return Show.bytes(bytes)
        case let sqlValue as SQLValue: return sqlValue.fuzzDescription
        case let string as String: return text(string)
        // Not `Date.description`: Foundation traps formatting a date far outside its calendar's years.
        case let date as Date: return "Date(timeIntervalSince1970: \(date.timeIntervalSince1970))"
        default: return String(String(reflecting: value).prefix(160))
        }
    }

    static func text(_ string: String) -> String {
        let count = string.utf8.count
        if count <= 80 { return String(reflecting: string) }
        return String(reflecting: String(string.prefix(60))) + "… (\(count) bytes)"
    }

    static func bytes(_ bytes: [UInt8]) -> String {
        let hex = bytes.prefix(24).map { String(format: "%02X", $0) }.joined()
        return "X'\(hex)\(bytes.count > 24 ? "…" : "")' (\(bytes.count) bytes)"
    }
}

extension SQLValue {
    var fuzzDescription: String {
        switch self {
        case .text(let text): "TEXT \(Show.text(text))"
        case .blob(let data): "BLOB \(Show.bytes(Array(data)))"
        case .integer(let value): "INTEGER \(value)"
        case .real(let value): "REAL \(value) (bits \(String(value.bitPattern, radix: 16)))"
        case .null: "NULL"
        }
    }
}
