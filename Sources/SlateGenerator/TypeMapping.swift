import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery
import SlateSchema

/// Chooses the Swift type of a column from the configuration, its name and its declared type.
struct TypeMapping {
    let configuration: GeneratorConfiguration
    /// Suffix rules, longest first, lowercased.
    private let suffixes: [(suffix: String, type: SwiftType)]
    private let declaredTypes: [String: SwiftType]
    private let columnTypes: [String: SwiftType]

    /// The built-in declared-type names, by the type name without parameters, uppercased.
    static let builtInDeclaredTypes: [String: SwiftType] = [
        "BOOL": .bool, "BOOLEAN": .bool,
        "DATE": .date, "DATETIME": .date, "TIMESTAMP": .date,
        "UUID": .uuid, "GUID": .uuid, "UNIQUEIDENTIFIER": .uuid,
    ]

    init(configuration: GeneratorConfiguration) {
        self.configuration = configuration
        suffixes = configuration.columnSuffixes.map { (suffix: $0.key.lowercased(), type: $0.value) }
            .sorted { ($0.suffix.count, $0.suffix) > ($1.suffix.count, $1.suffix) }
        var declared: [String: SwiftType] = [:]
        for (key, value) in configuration.declaredTypes { declared[Self.normalizedType(key)] = value }
        declaredTypes = declared
        var columns: [String: SwiftType] = [:]
        for (key, value) in configuration.columnTypes { columns[key.lowercased()] = value }
        columnTypes = columns
    }

    /// `"numeric ( 10, 2 )"` → `"NUMERIC(10,2)"`.
    static func normalizedType(_ type: String) -> String {
        String(type.uppercased().filter { !$0.isWhitespace })
    }

    /// `"NVARCHAR(120)"` → `"NVARCHAR"`; `"UNSIGNED BIG INT"` → `"UNSIGNEDBIGINT"`.
    static func baseType(_ type: String) -> String {
        let normalized = normalizedType(type)
        if let open = normalized.firstIndex(of: "(") { return String(normalized[..<open]) }
        return normalized
    }

    /// The Swift type for a column of `table` called `column` with declared type `declaredType`
    /// (`nil` when unknown, as for some view columns).
    func swiftType(table: String, column: String, declaredType: String?) -> SwiftType {
        if let type = columnTypes["\(table).\(column)".lowercased()] { return type }
        let lowercasedColumn = column.lowercased()
        if let rule = suffixes.first(where: { lowercasedColumn.hasSuffix($0.suffix) }) { return rule.type }
        guard let declaredType, !declaredType.trimmingCharacters(in: .whitespaces).isEmpty else { return .sqlValue }
        let full = Self.normalizedType(declaredType)
        let base = Self.baseType(declaredType)
        if let type = declaredTypes[full] ?? declaredTypes[base] { return type }
        if let type = Self.builtInDeclaredTypes[base] { return type }
        switch TableSchema.Affinity(declaredType: declaredType) {
        case .integer: return .int64
        case .text: return .string
        case .real, .numeric: return .double
        case .blob: return .data
        }
    }
}
