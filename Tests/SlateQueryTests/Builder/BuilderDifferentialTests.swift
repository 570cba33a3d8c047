import Foundation
import Slate
import SlateTestSupport
import Testing

/// The builder corpus (`BuilderCorpus`: hundreds of builder queries over Chinook, generated from
/// seeds), each compared with the same query written by hand in SQL: the rows, their order where
/// the query orders them, the raw values, and the tables after writes.
@Suite struct BuilderDifferentialTests {
    @Test func generatedQueriesMatchHandWrittenSQL() async throws {
        let db = try Database.chinook()
        var random = SeededGenerator(state: BuilderCorpus.seed)
        let invoiceDates = try db.fetchAll(Date.self, "SELECT DISTINCT InvoiceDate FROM Invoice ORDER BY 1")
        let states = try db.fetchAll(
            String.self, "SELECT DISTINCT State FROM Customer WHERE State IS NOT NULL ORDER BY 1")
        let countries = try db.fetchAll(String.self, "SELECT DISTINCT Country FROM Customer ORDER BY 1")
        let composers = try db.fetchAll(
            String.self, "SELECT DISTINCT Composer FROM Track WHERE Composer IS NOT NULL ORDER BY 1 LIMIT 60")
        #expect(invoiceDates.count > 300)

        var cases: [DifferentialCase] = []
        var shapes: Set<Int> = []
        for index in 0..<BuilderCorpus.caseCount {
            let shape = index % BuilderCorpus.shapeCount
            shapes.insert(shape)
            cases.append(
                try await BuilderCorpus.makeCase(
                    shape: shape, db: db, engine: SQLiteEngine(db: db), random: &random, invoiceDates: invoiceDates,
                    states: states, countries: countries, composers: composers))
        }
        var mismatches: [String] = []
        var nonEmpty = 0
        for item in cases {
            let builder = item.isOrdered ? item.builder : item.builder.sorted(by: BuilderCorpus.precedes)
            let handWritten = item.isOrdered ? item.handWritten : item.handWritten.sorted(by: BuilderCorpus.precedes)
            if builder != handWritten {
                mismatches.append(
                    "\(item.label): builder \(builder.prefix(3)) … (\(builder.count)), SQL \(handWritten.prefix(3)) … (\(handWritten.count))"
                )
            }
            if !builder.isEmpty { nonEmpty += 1 }
        }
        let report = mismatches.prefix(10).joined(separator: "\n")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) differ:\n\(report)")
        #expect(cases.count == BuilderCorpus.caseCount)
        #expect(shapes.count == BuilderCorpus.shapeCount)
        // The generator finds rows: a comparison of empty results would prove little.
        #expect(nonEmpty > BuilderCorpus.caseCount * 3 / 4)
    }

    @Test func generatedExpressionQueriesMatchHandWrittenSQL() async throws {
        let db = try Database.chinook()
        var random = SeededGenerator(state: BuilderCorpus.expressionSeed)
        let states = try db.fetchAll(
            String.self, "SELECT DISTINCT State FROM Customer WHERE State IS NOT NULL ORDER BY 1")
        let months = try db.fetchAll(
            String.self, "SELECT DISTINCT strftime('%Y-%m', InvoiceDate) FROM Invoice ORDER BY 1")
        var mismatches: [String] = []
        var nonEmpty = 0
        for index in 0..<BuilderCorpus.expressionCaseCount {
            let item = try await BuilderCorpus.makeExpressionCase(
                shape: index % BuilderCorpus.expressionShapeCount, db: db, engine: SQLiteEngine(db: db),
                random: &random,
                states: states, months: months)
            let builder = item.isOrdered ? item.builder : item.builder.sorted(by: BuilderCorpus.precedes)
            let handWritten = item.isOrdered ? item.handWritten : item.handWritten.sorted(by: BuilderCorpus.precedes)
            if builder != handWritten {
                mismatches.append(
                    "\(item.label): builder \(builder.prefix(3)) … (\(builder.count)), SQL \(handWritten.prefix(3)) … (\(handWritten.count))"
                )
            }
            if !builder.isEmpty { nonEmpty += 1 }
        }
        let report = mismatches.prefix(10).joined(separator: "\n")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(BuilderCorpus.expressionCaseCount) differ:\n\(report)")
        #expect(nonEmpty > BuilderCorpus.expressionCaseCount * 3 / 4)
    }
}
