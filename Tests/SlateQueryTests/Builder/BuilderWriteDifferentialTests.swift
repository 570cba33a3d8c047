import Foundation
import Slate
import SlateTestSupport
import Testing

/// The write corpus (`BuilderWriteCorpus`: writes, FTS5 and JSON over Chinook, generated from a
/// seed), each compared with the same statement written by hand.
@Suite struct BuilderWriteDifferentialTests {
    @Test func generatedStatementsMatchHandWrittenSQL() async throws {
        var random = SeededGenerator(state: BuilderWriteCorpus.seed)
        let indexed = try BuilderWriteCorpus.indexedChinook()
        var mismatches: [String] = []
        var nonEmpty = 0
        var shapes: Set<Int> = []
        for index in 0..<BuilderWriteCorpus.caseCount {
            let shape = index % BuilderWriteCorpus.shapeCount
            shapes.insert(shape)
            let item = try await BuilderWriteCorpus.makeCase(
                shape: shape, indexed: indexed, engine: SQLiteEngine(db: indexed), random: &random)
            let builder = item.isOrdered ? item.builder : item.builder.sorted(by: BuilderCorpus.precedes)
            let handWritten =
                item.isOrdered ? item.handWritten : item.handWritten.sorted(by: BuilderCorpus.precedes)
            if builder != handWritten {
                mismatches.append(
                    "\(item.label): builder \(builder.prefix(3)) … (\(builder.count)), SQL \(handWritten.prefix(3)) … (\(handWritten.count))"
                )
            }
            if !builder.isEmpty { nonEmpty += 1 }
        }
        let report = mismatches.prefix(10).joined(separator: "\n")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(BuilderWriteCorpus.caseCount) differ:\n\(report)")
        #expect(shapes.count == BuilderWriteCorpus.shapeCount)
        #expect(nonEmpty > BuilderWriteCorpus.caseCount * 3 / 4)
    }

}
