import Foundation
import Slate
import SlateTestSupport
import Testing

// Random builder queries over Chinook's tracks, from a seed: expressions of each type (integer,
// real, text, condition) as small trees of the builder's operators and functions, in selections,
// filters, orderings, groupings and subqueries. Each tree is chosen first (`IntNode`, `RealNode`,
// `TextNode`, `ConditionNode`), then built inside the query's closures, so that the same query can
// be built and run on any engine. Values stay small: no arithmetic leaves 64 bits (an overflow is
// a documented difference, not a bug).

/// A value of a result row, compared across engines.
enum Cell: Equatable, CustomStringConvertible {
    case int(Int64?)
    case real(Double?)
    case text(String?)
    case bool(Bool?)
    /// `group_concat`'s parts, whose order is unspecified: sorted.
    case parts([String]?)

    static func == (lhs: Cell, rhs: Cell) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a == b
        case (.text(let a), .text(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.parts(let a), .parts(let b)): return a == b
        case (.real(let a?), .real(let b?)):
            // Up to the order of floating-point summation.
            return a == b || abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
        case (.real(nil), .real(nil)): return true
        default: return false
        }
    }

    var description: String {
        switch self {
        case .int(let value): value.map { "\($0)" } ?? "NULL"
        case .real(let value): value.map { "\($0)" } ?? "NULL"
        case .text(let value): value.map { "'\($0)'" } ?? "NULL"
        case .bool(let value): value.map { "\($0)" } ?? "NULL"
        case .parts(let value): value.map { "\($0)" } ?? "NULL"
        }
    }

    static func groupParts(_ text: String?) -> Cell {
        .parts(text.map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init).sorted() })
    }
}

// MARK: - Expression trees

/// An expression with another value type: an optional one, or another integer width.
func retyped<From, To>(_ expression: SQLExpression<From>) -> SQLExpression<To> {
    SQLExpression(sql: expression.queryFragment, precedence: expression.queryPrecedence)
}

/// The integer columns of Track, as `Int64?` expressions.
enum IntColumn: CaseIterable {
    case trackId, albumId, genreId, mediaTypeId, milliseconds, bytes

    func expression(_ track: Track.Columns) -> SQLExpression<Int64?> {
        switch self {
        case .trackId: SQLExpression(track.trackId)
        case .albumId: SQLExpression(track.albumId)
        case .genreId: SQLExpression(track.genreId)
        case .mediaTypeId: retyped(SQLExpression(track.mediaTypeId))
        case .milliseconds: retyped(SQLExpression(track.milliseconds))
        case .bytes: SQLExpression(track.bytes)
        }
    }
}

indirect enum IntNode: CustomStringConvertible {
    case column(IntColumn)
    case constant(Int64)
    case add(IntNode, IntNode)
    case subtract(IntNode, IntNode)
    case multiply(IntNode, Int64)
    case divide(IntNode, IntNode)
    case remainder(IntNode, IntNode)
    case negate(IntNode)
    case abs(IntNode)
    case coalesce(IntNode, Int64)
    case length(TextNode)
    case position(TextNode, String)
    case truncated(RealNode)
    case choose(ConditionNode, IntNode, IntNode)

    func build(_ track: Track.Columns) -> SQLExpression<Int64?> {
        switch self {
        case .column(let column): column.expression(track)
        case .constant(let value): SQLExpression(value: value)
        case .add(let lhs, let rhs): lhs.build(track) + rhs.build(track)
        case .subtract(let lhs, let rhs): lhs.build(track) - rhs.build(track)
        case .multiply(let lhs, let factor): lhs.build(track) * factor
        case .divide(let lhs, let rhs): lhs.build(track) / rhs.build(track)
        case .remainder(let lhs, let rhs): lhs.build(track) % rhs.build(track)
        case .negate(let operand): -operand.build(track)
        case .abs(let operand): operand.build(track).abs()
        case .coalesce(let operand, let fallback): retyped(operand.build(track).coalesce(fallback))
        case .length(let text): retyped(text.build(track).length())
        case .position(let text, let substring): retyped(text.build(track).instr(substring))
        case .truncated(let real): real.build(track).cast(as: Int64.self)
        case .choose(let condition, let then, let otherwise):
            Case.when(condition.build(track), then: then.build(track)).else(otherwise.build(track))
        }
    }

    var description: String {
        switch self {
        case .column(let column): "\(column)"
        case .constant(let value): "\(value)"
        case .add(let lhs, let rhs): "(\(lhs) + \(rhs))"
        case .subtract(let lhs, let rhs): "(\(lhs) - \(rhs))"
        case .multiply(let lhs, let factor): "(\(lhs) * \(factor))"
        case .divide(let lhs, let rhs): "(\(lhs) / \(rhs))"
        case .remainder(let lhs, let rhs): "(\(lhs) % \(rhs))"
        case .negate(let operand): "-\(operand)"
        case .abs(let operand): "abs(\(operand))"
        case .coalesce(let operand, let fallback): "(\(operand) ?? \(fallback))"
        case .length(let text): "length(\(text))"
        case .position(let text, let substring): "instr(\(text), '\(substring)')"
        case .truncated(let real): "int(\(real))"
        case .choose(let condition, let then, let otherwise): "case(\(condition) ? \(then) : \(otherwise))"
        }
    }
}

indirect enum RealNode: CustomStringConvertible {
    case unitPrice
    case constant(Double)
    case add(RealNode, RealNode)
    case subtract(RealNode, RealNode)
    case multiply(RealNode, RealNode)
    case divide(RealNode, RealNode)
    case rounded(RealNode, Int)
    case fromInt(IntNode)

    func build(_ track: Track.Columns) -> SQLExpression<Double?> {
        switch self {
        case .unitPrice: retyped(SQLExpression(track.unitPrice))
        case .constant(let value): SQLExpression(value: value)
        case .add(let lhs, let rhs): lhs.build(track) + rhs.build(track)
        case .subtract(let lhs, let rhs): lhs.build(track) - rhs.build(track)
        case .multiply(let lhs, let rhs): lhs.build(track) * rhs.build(track)
        case .divide(let lhs, let rhs): lhs.build(track) / rhs.build(track)
        case .rounded(let operand, let places): operand.build(track).rounded(toPlaces: places)
        case .fromInt(let operand): operand.build(track).cast(as: Double.self)
        }
    }

    var description: String {
        switch self {
        case .unitPrice: "unitPrice"
        case .constant(let value): "\(value)"
        case .add(let lhs, let rhs): "(\(lhs) + \(rhs))"
        case .subtract(let lhs, let rhs): "(\(lhs) - \(rhs))"
        case .multiply(let lhs, let rhs): "(\(lhs) * \(rhs))"
        case .divide(let lhs, let rhs): "(\(lhs) / \(rhs))"
        case .rounded(let operand, let places): "round(\(operand), \(places))"
        case .fromInt(let operand): "real(\(operand))"
        }
    }
}

indirect enum TextNode: CustomStringConvertible {
    case name
    case composer
    case constant(String)
    case lower(TextNode)
    case upper(TextNode)
    case trim(TextNode)
    case substring(TextNode, Int, Int?)
    case coalesce(TextNode, String)
    case fromInt(IntNode)
    case fromReal(RealNode)

    func build(_ track: Track.Columns) -> SQLExpression<String?> {
        switch self {
        case .name: retyped(SQLExpression(track.name))
        case .composer: SQLExpression(track.composer)
        case .constant(let value): SQLExpression(value: value)
        case .lower(let text): text.build(track).lower()
        case .upper(let text): text.build(track).upper()
        case .trim(let text): text.build(track).trim()
        case .substring(let text, let start, let length): text.build(track).substr(start, length)
        case .coalesce(let text, let fallback): retyped(text.build(track).coalesce(fallback))
        case .fromInt(let operand): operand.build(track).cast(as: String.self)
        case .fromReal(let operand): operand.build(track).cast(as: String.self)
        }
    }

    var description: String {
        switch self {
        case .name: "name"
        case .composer: "composer"
        case .constant(let value): "'\(value)'"
        case .lower(let text): "lower(\(text))"
        case .upper(let text): "upper(\(text))"
        case .trim(let text): "trim(\(text))"
        case .substring(let text, let start, let length): "substr(\(text), \(start), \(length.map { "\($0)" } ?? "-"))"
        case .coalesce(let text, let fallback): "(\(text) ?? '\(fallback)')"
        case .fromInt(let operand): "text(\(operand))"
        case .fromReal(let operand): "text(\(operand))"
        }
    }
}

enum Comparison: CaseIterable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    func apply<Value: SQLExtractable>(_ lhs: SQLExpression<Value?>, _ rhs: SQLExpression<Value?>) -> SQLExpression<
        Bool?
    > {
        switch self {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }
}

indirect enum ConditionNode: CustomStringConvertible {
    case compareInts(IntNode, Comparison, IntNode)
    case compareReals(RealNode, Comparison, RealNode)
    case compareTexts(TextNode, Comparison, TextNode)
    case isNullInt(IntNode)
    case isNullText(TextNode)
    case between(IntNode, Int64, Int64)
    case inList(IntNode, [Int64], negated: Bool)
    case like(TextNode, String, negated: Bool)
    case hasPrefix(TextNode, String)
    case contains(TextNode, String)
    case isSame(TextNode, TextNode, negated: Bool)
    case not(ConditionNode)
    case and(ConditionNode, ConditionNode)
    case or(ConditionNode, ConditionNode)
    case sameTruth(ConditionNode, ConditionNode)
    /// A track of the same album longer than this one.
    case longerOnAlbum
    /// The album's title has the prefix.
    case albumTitle(String)
    /// The track's album is one of an artist's.
    case albumOfArtistBelow(Int64)
    /// Refused on PostgreSQL.
    case glob(TextNode, String)
    case caseInsensitive(TextNode, String)

    func build(_ track: Track.Columns) -> SQLExpression<Bool?> {
        switch self {
        case .compareInts(let lhs, let op, let rhs): op.apply(lhs.build(track), rhs.build(track))
        case .compareReals(let lhs, let op, let rhs): op.apply(lhs.build(track), rhs.build(track))
        case .compareTexts(let lhs, let op, let rhs): op.apply(lhs.build(track), rhs.build(track))
        case .isNullInt(let operand): retyped(operand.build(track).isNull)
        case .isNullText(let operand): retyped(operand.build(track).isNull)
        case .between(let operand, let lower, let upper): operand.build(track).between(lower, and: upper)
        case .inList(let operand, let values, let negated):
            negated
                ? operand.build(track).notIn(values.map { Optional($0) })
                : operand.build(track).in(values.map { Optional($0) })
        case .like(let operand, let pattern, let negated):
            negated ? operand.build(track).notLike(pattern) : operand.build(track).like(pattern)
        case .hasPrefix(let operand, let prefix): operand.build(track).hasPrefix(prefix)
        case .contains(let operand, let part): operand.build(track).contains(part)
        case .isSame(let lhs, let rhs, let negated):
            retyped(negated ? lhs.build(track).isNot(rhs.build(track)) : lhs.build(track).is(rhs.build(track)))
        case .not(let operand): !operand.build(track)
        case .and(let lhs, let rhs): lhs.build(track) && rhs.build(track)
        case .or(let lhs, let rhs): lhs.build(track) || rhs.build(track)
        case .sameTruth(let lhs, let rhs): lhs.build(track) == rhs.build(track)
        case .longerOnAlbum:
            retyped(exists(Track.where { $0.albumId == track.albumId && $0.milliseconds > track.milliseconds }))
        case .albumTitle(let prefix):
            retyped(exists(Album.where { $0.albumId == track.albumId && $0.title.hasPrefix(prefix) }))
        case .albumOfArtistBelow(let artist):
            track.albumId.in(Album.where { $0.artistId < artist }.select { $0.albumId })
        case .glob(let operand, let pattern): operand.build(track).glob(pattern)
        case .caseInsensitive(let operand, let value):
            operand.build(track).collate(.nocase) == SQLExpression(value: value)
        }
    }

    var description: String {
        switch self {
        case .compareInts(let lhs, let op, let rhs): "(\(lhs) \(op) \(rhs))"
        case .compareReals(let lhs, let op, let rhs): "(\(lhs) \(op) \(rhs))"
        case .compareTexts(let lhs, let op, let rhs): "(\(lhs) \(op) \(rhs))"
        case .isNullInt(let operand): "(\(operand) is null)"
        case .isNullText(let operand): "(\(operand) is null)"
        case .between(let operand, let lower, let upper): "(\(operand) between \(lower) and \(upper))"
        case .inList(let operand, let values, let negated): "(\(operand) \(negated ? "not in" : "in") \(values))"
        case .like(let operand, let pattern, let negated): "(\(operand) \(negated ? "not like" : "like") '\(pattern)')"
        case .hasPrefix(let operand, let prefix): "(\(operand) hasPrefix '\(prefix)')"
        case .contains(let operand, let part): "(\(operand) contains '\(part)')"
        case .isSame(let lhs, let rhs, let negated): "(\(lhs) \(negated ? "is not" : "is") \(rhs))"
        case .not(let operand): "not \(operand)"
        case .and(let lhs, let rhs): "(\(lhs) and \(rhs))"
        case .or(let lhs, let rhs): "(\(lhs) or \(rhs))"
        case .sameTruth(let lhs, let rhs): "(\(lhs) == \(rhs))"
        case .longerOnAlbum: "longerOnAlbum"
        case .albumTitle(let prefix): "albumTitle('\(prefix)')"
        case .albumOfArtistBelow(let artist): "albumOfArtistBelow(\(artist))"
        case .glob(let operand, let pattern): "(\(operand) glob '\(pattern)')"
        case .caseInsensitive(let operand, let value): "(\(operand) nocase= '\(value)')"
        }
    }
}

/// An ordering term: an expression, its direction and where NULLs go.
struct OrderNode: CustomStringConvertible {
    enum Expression {
        case int(IntNode)
        case real(RealNode)
        case text(TextNode)
    }
    var expression: Expression
    var descending: Bool?
    var nullsFirst: Bool?

    func build(_ track: Track.Columns) -> any OrderingTerm {
        func term(_ expression: some QueryExpression) -> any OrderingTerm {
            let nulls = nullsFirst.map { $0 ? Ordering.NullsPosition.first : .last }
            switch descending {
            case nil: return expression
            case false?: return expression.ascending(nulls: nulls)
            case true?: return expression.descending(nulls: nulls)
            }
        }
        switch expression {
        case .int(let node): return term(node.build(track))
        case .real(let node): return term(node.build(track))
        case .text(let node): return term(node.build(track))
        }
    }

    var description: String {
        let direction = descending.map { $0 ? " desc" : " asc" } ?? ""
        let nulls = nullsFirst.map { $0 ? " nulls first" : " nulls last" } ?? ""
        switch expression {
        case .int(let node): return "\(node)\(direction)\(nulls)"
        case .real(let node): return "\(node)\(direction)\(nulls)"
        case .text(let node): return "\(node)\(direction)\(nulls)"
        }
    }
}

// MARK: - Generating

/// Makes random trees from a seeded generator.
struct RandomTrees {
    var random: SeededGenerator

    mutating func chance(_ percent: Int) -> Bool { random.int(1...100) <= percent }

    mutating func smallInt() -> Int64 { random.element([0, 1, 2, 3, 7, 10, 100, -1, -5, 1000, 60_000]) }

    mutating func int(_ depth: Int) -> IntNode {
        if depth <= 0 || chance(30) {
            return chance(75) ? .column(random.element(IntColumn.allCases)) : .constant(smallInt())
        }
        switch random.int(0...12) {
        case 0, 1: return .add(int(depth - 1), int(depth - 1))
        case 2: return .subtract(int(depth - 1), int(depth - 1))
        case 3: return .multiply(int(depth - 1), random.element([-3, 2, 10]))
        case 4: return .divide(int(depth - 1), chance(70) ? .constant(smallInt()) : int(depth - 1))
        case 5: return .remainder(int(depth - 1), chance(70) ? .constant(smallInt()) : int(depth - 1))
        case 6: return .negate(int(depth - 1))
        case 7: return .abs(int(depth - 1))
        case 8: return .coalesce(int(depth - 1), smallInt())
        case 9: return .length(text(depth - 1))
        case 10: return .position(text(depth - 1), random.element(["a", "e", "The", "ö", "x"]))
        case 11: return .truncated(real(depth - 1))
        default: return .choose(condition(depth - 1), int(depth - 1), int(depth - 1))
        }
    }

    mutating func real(_ depth: Int) -> RealNode {
        if depth <= 0 || chance(30) {
            return chance(70) ? .unitPrice : .constant(random.element([0, 0.5, 1.25, 3, -2.5, 0.99]))
        }
        switch random.int(0...6) {
        case 0: return .add(real(depth - 1), real(depth - 1))
        case 1: return .subtract(real(depth - 1), real(depth - 1))
        case 2: return .multiply(real(depth - 1), real(depth - 1))
        case 3: return .divide(real(depth - 1), real(depth - 1))
        case 4: return .rounded(real(depth - 1), random.int(-2...3))
        default: return .fromInt(int(depth - 1))
        }
    }

    mutating func text(_ depth: Int) -> TextNode {
        if depth <= 0 || chance(30) {
            return chance(80) ? random.element([.name, .composer]) : .constant(random.element(["A", "b", "The", ""]))
        }
        switch random.int(0...8) {
        case 0: return .lower(text(depth - 1))
        case 1: return .upper(text(depth - 1))
        case 2: return .trim(text(depth - 1))
        case 3:
            // A negative start or length is SQLite's only: refused on PostgreSQL.
            let start = chance(10) ? -2 : random.int(0...6)
            return .substring(text(depth - 1), start, chance(50) ? nil : chance(5) ? -1 : random.int(0...5))
        case 4: return .coalesce(text(depth - 1), random.element(["?", "none"]))
        case 5: return .fromInt(int(depth - 1))
        case 6 where chance(10): return .fromReal(real(depth - 1))  // refused on PostgreSQL
        default: return text(depth - 1)
        }
    }

    mutating func condition(_ depth: Int) -> ConditionNode {
        if depth <= 0 || chance(25) {
            switch random.int(0...9) {
            case 0: return .isNullInt(int(0))
            case 1: return .isNullText(text(0))
            case 2: return .between(int(0), random.int64(-10...200), random.int64(200...400_000))
            case 3:
                let values = (0..<random.int(0...4)).map { _ in random.int64(0...30) }
                return .inList(int(0), values, negated: chance(30))
            case 4: return .like(text(0), random.element(["%a%", "A%", "%S", "_e%", "%"]), negated: chance(30))
            case 5: return .hasPrefix(text(0), random.element(["A", "The", "b", "%", "_"]))
            case 6: return .contains(text(0), random.element(["love", "Love", "o", "-", "["]))
            case 7 where chance(25): return .longerOnAlbum
            case 7: return .albumTitle(random.element(["A", "The", "B"]))
            case 8 where chance(5): return .glob(text(0), "A*")
            case 8 where chance(5): return .caseInsensitive(text(0), "a")
            case 8: return .albumOfArtistBelow(random.int64(1...100))
            default:
                return .compareInts(int(0), random.element(Comparison.allCases), .constant(random.int64(0...300_000)))
            }
        }
        switch random.int(0...9) {
        case 0, 1: return .compareInts(int(depth - 1), random.element(Comparison.allCases), int(depth - 1))
        case 2: return .compareReals(real(depth - 1), random.element(Comparison.allCases), real(depth - 1))
        case 3: return .compareTexts(text(depth - 1), random.element(Comparison.allCases), text(depth - 1))
        case 4: return .isSame(text(depth - 1), text(depth - 1), negated: chance(50))
        case 5: return .not(condition(depth - 1))
        case 6: return .and(condition(depth - 1), condition(depth - 1))
        case 7: return .or(condition(depth - 1), condition(depth - 1))
        case 8: return .sameTruth(condition(depth - 1), condition(depth - 1))
        default: return condition(0)
        }
    }

    mutating func ordering(_ depth: Int) -> OrderNode {
        let expression: OrderNode.Expression
        switch random.int(0...2) {
        case 0: expression = .int(int(depth))
        case 1: expression = .real(real(depth))
        default: expression = .text(text(depth))
        }
        let descending: Bool? = chance(40) ? nil : chance(50)
        return OrderNode(expression: expression, descending: descending, nullsFirst: chance(25) ? chance(50) : nil)
    }

    mutating func limit() -> (limit: Int?, offset: Int?) {
        switch random.int(0...5) {
        case 0: return (nil, nil)
        case 1: return (random.int(0...30), nil)
        case 2: return (random.int(1...30), random.int(0...200))
        case 3: return (nil, random.int(3000...3500))
        case 4: return (-1, random.int(3400...3500))
        default: return (random.int(1...20), random.int(-3...(-1)))
        }
    }
}
