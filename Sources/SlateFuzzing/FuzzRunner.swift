import Foundation
import Slate

/// Runs fuzz cases: a fixed number per domain from a seed (deterministic: the same seed and count
/// always run the same cases), or one case from libFuzzer's bytes.
public final class FuzzRunner {
    public struct Options: Sendable {
        public var domains: [FuzzDomain] = FuzzDomain.allCases
        /// Cases per domain.
        public var cases = 1000
        public var seed: UInt64 = 1
        /// Runs only this case of each domain (to replay a finding).
        public var onlyCase: Int?
        /// Where `chinook.sqlite` and `northwind.sqlite` are.
        public var dataDirectory = URL(fileURLWithPath: "Tests/SlateTestSupport/Resources")
        /// More seed queries for the SQL domain (statements of `.sql` files).
        public var extraQueries: [String] = []
        /// Where the schema domain writes sources to type-check, and how many.
        public var schemaOutput: URL?
        public var compileSample = 0
        /// Stops a domain after this many seconds, whatever the case count.
        public var timeLimit: Double?
        /// Prints each case as it starts (slow; for hunting a hang).
        public var verbose = false

        public init() {}
    }

    private let options: Options
    private var values: ValueDomain?
    private var decode: DecodeDomain?
    private var sql: SQLDomain?
    private var schemas: SchemaDomain?
    private var changesets: ChangesetDomain?

    public init(options: Options) {
        self.options = options
    }

    /// Runs every case of every domain in the options.
    public func run(progress: (DomainReport) -> Void = { _ in }) throws -> [DomainReport] {
        var reports: [DomainReport] = []
        for domain in options.domains {
            let started = Date()
            var report = DomainReport(domain: domain)
            let indexes = options.onlyCase.map { [$0] } ?? Array(0..<options.cases)
            for index in indexes {
                if let limit = options.timeLimit, Date().timeIntervalSince(started) > limit {
                    report.count("stopped by the time limit")
                    break
                }
                var entropy = Entropy(seed: Entropy.caseSeed(run: options.seed, case: index))
                CrashContext.set(
                    "case \(index) of domain \(domain.rawValue); replay with: slate-fuzz --domain \(domain.rawValue) --seed \(options.seed) --case \(index)"
                )
                if options.verbose { FileHandle.standardError.write(Data("\(domain.rawValue) case \(index)\n".utf8)) }
                var context = CaseContext(domain: domain, runSeed: options.seed, index: index, report: report)
                try runCase(domain, &entropy, &context)
                report = context.report
                report.cases += 1
            }
            CrashContext.clear()
            report.seconds = Date().timeIntervalSince(started)
            progress(report)
            reports.append(report)
        }
        return reports
    }

    /// Runs one case of `domain`; what the harness itself fails at (not the library) is a finding too.
    func runCase(_ domain: FuzzDomain, _ entropy: inout Entropy, _ context: inout CaseContext) throws {
        do {
            switch domain {
            case .values:
                if values == nil { values = try ValueDomain() }
                try values?.run(&entropy, &context)
            case .decode:
                if decode == nil { decode = try DecodeDomain() }
                try decode?.run(&entropy, &context)
            case .sql:
                if sql == nil {
                    sql = try SQLDomain(dataDirectory: options.dataDirectory, extraQueries: options.extraQueries)
                }
                try sql?.run(&entropy, &context)
            case .schemas:
                if schemas == nil {
                    schemas = try SchemaDomain(output: options.schemaOutput, compileSample: options.compileSample)
                }
                try schemas?.run(&entropy, &context)
            case .changesets:
                if changesets == nil { changesets = try ChangesetDomain() }
                try changesets?.run(&entropy, &context)
            }
        } catch {
            context.finding("the case's own setup failed", "\(error)")
        }
    }

    /// Runs one case of `domain` from libFuzzer's bytes and returns its findings.
    public func runBytes(_ bytes: [UInt8], domain: FuzzDomain) throws -> [Finding] {
        var entropy = Entropy(bytes: bytes)
        var context = CaseContext(domain: domain, runSeed: 0, index: 0, report: DomainReport(domain: domain))
        try runCase(domain, &entropy, &context)
        return context.report.findings
    }

    /// The statements of `.sql` files, split on semicolons at the end of a line.
    public static func queries(inFiles urls: [URL]) throws -> [String] {
        try urls.flatMap { url in
            try String(contentsOf: url, encoding: .utf8)
                .components(separatedBy: ";\n")
                .map {
                    $0.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
                        .joined(separator: "\n")
                }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }
        }
    }

    /// A summary of reports, one line per domain, and the findings.
    public static func summary(_ reports: [DomainReport], seed: UInt64) -> String {
        var lines: [String] = []
        for report in reports {
            var line = String(
                format: "%-8@ %6d cases %7.1f s  %8d exact  %7d refused with DatabaseError  %3d findings",
                report.domain.rawValue as NSString, report.cases, report.seconds, report.exact, report.refused,
                report.findings.count)
            if report.knownCount > 0 { line += "  \(report.knownCount) known inexact reads (issue 19)" }
            lines.append(line)
            for (name, count) in report.counters.sorted(by: { $0.key < $1.key }) {
                lines.append("           \(name): \(count)")
            }
            for (issue, count) in report.known.sorted(by: { $0.key < $1.key }) {
                lines.append("           known \(issue.rawValue): \(count), e.g. \(report.knownExamples[issue] ?? "")")
            }
        }
        let findings = reports.flatMap(\.findings)
        // Findings grouped by label: the first of each, and how many more.
        var groups: [String: [Finding]] = [:]
        var order: [String] = []
        for finding in findings {
            let key = "\(finding.domain.rawValue): \(finding.label)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(finding)
        }
        lines.append("findings: \(findings.count)" + (findings.isEmpty ? "" : " in \(order.count) groups"))
        for key in order {
            guard let group = groups[key], let first = group.first else { continue }
            lines.append("  \(group.count)× \(first)")
        }
        return lines.joined(separator: "\n")
    }
}
