/// Reads once answered with a value that is not the exact conversion of the stored value. Issue
/// 19 made all of them exact or a ``DatabaseError`` with ``ResultCode/mismatch``: each is a
/// regression now (``isStillOpen``), still counted by name so that a report says which rule broke.
///
/// The value fuzzer counts them by name instead of failing, so that they are visible in every
/// run and never pass silently; `slate-fuzz --strict` fails on them. Each has a test in
/// `Tests/SlateCoreTests/ExactReadExpectationTests.swift` asserting the exact behaviour. A lie that is not on this list fails every run.
public enum KnownInexactRead: String, CaseIterable, Sendable, Comparable {
    /// A REAL with a fraction read as an integer type (or `Bool`) is truncated: `1.5` reads `1`.
    case realWithFractionTruncated = "real-with-fraction-truncated"
    /// A REAL beyond an integer type's range saturates at the 64-bit bounds: `1e30` reads
    /// `Int64.max`, also as `UInt64`.
    case realOutOfRangeSaturated = "real-out-of-range-saturated"
    /// An INTEGER beyond 2^53 read as `Double` (or `Float`) is rounded.
    case integerRoundedToFloatingPoint = "integer-rounded-to-floating-point"
    /// A REAL read as `Float` is rounded to the nearest `Float` (or becomes infinite).
    case realRoundedToFloat = "real-rounded-to-float"
    /// TEXT that starts with a number but is not one (`'12abc'`, `'1e3'`, `'0x10'` as an integer)
    /// reads that number from a live row, through `sqlite3_column_int64`/`_double`.
    case textPrefixReadAsNumber = "text-prefix-read-as-number"
    /// A BLOB read as a number from a live row gives the number its bytes spell as text.
    case blobReadAsNumber = "blob-read-as-number"
    /// TEXT that is not a decimal number in SQL's syntax (`'inf'`, `'nan'`, `'0x1p3'`, `'1e999'`)
    /// reads as a `Double` through Swift's parser.
    case textOutsideNumberSyntaxReadAsDouble = "text-outside-number-syntax-read-as-double"
    /// A REAL read as `Decimal` goes through `Decimal(Double)`, which does not keep every
    /// double: the `Decimal` does not convert back to the same `Double`.
    case realApproximatedAsDecimal = "real-approximated-as-decimal"
    /// TEXT that is not a decimal number in SQL's syntax is read as `Decimal` through
    /// Foundation's scanner, which takes a prefix (`'12abc'` reads 12) or other spellings.
    case textOutsideNumberSyntaxReadAsDecimal = "text-outside-number-syntax-read-as-decimal"
    /// Numeric TEXT read as `Double` from a live row is parsed by SQLite (`sqlite3_column_double`),
    /// which is not always correctly rounded (one unit in the last place off); from a copied row
    /// it is parsed by Swift, which is. Both are within a unit of the text; they should agree.
    case textParsedDifferentlyLiveAndCopied = "text-parsed-differently-live-and-copied"

    /// What the read does today, and what it should do.
    public var explanation: String {
        switch self {
        case .realWithFractionTruncated:
            "a REAL with a fraction read as an integer is truncated (1.5 reads 1); it should throw"
        case .realOutOfRangeSaturated:
            "a REAL beyond the integer type's range saturates (1e30 reads Int64.max, also as UInt64); it should throw"
        case .integerRoundedToFloatingPoint:
            "an INTEGER beyond 2^53 read as Double or Float is rounded; it should throw"
        case .realRoundedToFloat:
            "a REAL read as Float is rounded to the nearest Float; it should throw unless exact"
        case .textPrefixReadAsNumber:
            "TEXT that starts with a number ('12abc') reads as that number from a live row; it should throw"
        case .blobReadAsNumber:
            "a BLOB read as a number from a live row reads the number its bytes spell; it should throw"
        case .textOutsideNumberSyntaxReadAsDouble:
            "TEXT that is not a decimal number ('inf', 'nan', '0x1p3', '1e999') reads as a Double; it should throw"
        case .realApproximatedAsDecimal:
            "a REAL read as Decimal does not convert back to the same Double; it should be exact or throw"
        case .textOutsideNumberSyntaxReadAsDecimal:
            "TEXT that is not a decimal number is read as Decimal through a prefix scan ('12abc' reads 12); it should throw"
        case .textParsedDifferentlyLiveAndCopied:
            "numeric TEXT read as Double: SQLite's parse (live row) and Swift's (copied row) can differ by one unit in the last place; they should agree"
        }
    }

    /// Whether reads still behave this way. Issue 19 made every one of them exact (a `Float`
    /// read throws unless the `Float` holds the value exactly; a REAL read as `Decimal` is the
    /// number its shortest round-trip text spells), so the fuzzer treats any of them as a
    /// regression.
    public var isStillOpen: Bool { false }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
