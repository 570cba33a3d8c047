import SlateCodeModel
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// One column of a `@Table` struct, as read from a stored property. About 20 stored properties, on
/// purpose: each is one fact of the property or its attributes that the expansion writes.
struct ColumnModel {
    /// The property name, without backticks.
    var propertyName: String
    /// The property name as code refers to it (backticked when it is a keyword).
    var accessName: String
    /// The column name.
    var columnName: String
    /// The property's type, as written.
    var typeText: String
    var info: TypeInfo
    var storage: ColumnStorage
    var isPrimaryKey = false
    var isAutoIncrement = false
    var isUnique = false
    var isIndexed = false
    var defaultSQL: String?
    /// `@Column(default: …, notNull: true)` on an optional property: the column is `NOT NULL`, and
    /// `nil` lets its default apply.
    var isNilForDefault = false
    var collation: String?
    /// The foreign key declared with `@ForeignKey`.
    var references: ReferenceModel?
    var renamedFrom: String?
    var sqlTypeOverride: String?
    /// Whether the property is a `var` (so `didInsert(rowID:)` can set it).
    var isMutable: Bool
    /// `@Grouped`: the property's `ColumnGroup` type, stored as several columns.
    var groupType: String?

    var sqlType: SQLTypeSpec {
        if let sqlTypeOverride { return .literal(sqlTypeOverride) }
        if case .date(let strategy) = storage { return .literal(TypeAnalysis.dateSQLType(strategy: strategy)) }
        return info.sqlType
    }
}

/// A `@ForeignKey` reference: Swift expressions for the table and actions.
struct ReferenceModel {
    var table: String
    /// The referenced record type, when given as `Artist.self`.
    var typeName: String?
    var column: String?
    var onDelete: String?
    var onUpdate: String?
}

/// Everything `@Table` generates code from.
struct TableModel {
    var typeName: String
    var tableName: String
    var databaseFile: String?
    var isWithoutRowID = false
    /// `@Table(fullTextSearch: "…")`: an FTS5 table, with these options after its columns.
    var fullTextOptions: String?
    var accessModifier: String
    var columns: [ColumnModel]
    /// How `init(row:)` builds the record (see `TableConformance.DecodingShape`): through the
    /// memberwise initializer Swift synthesizes when the struct surely has it, taking the columns'
    /// properties in order with every other stored property defaulted; else every read before the
    /// first assignment when no stored property surely has an initial value; else one assignment
    /// per read.
    var decodingShape = TableConformance.DecodingShape.assignments
    /// The associations: declared in `@Table(associations:)`, and one per `@ForeignKey(Type.self)`
    /// (`AssociationParsing.swift`).
    var associations: [TableConformance.Association] = []

    var primaryKeyColumns: [ColumnModel] { columns.filter(\.isPrimaryKey) }
}
