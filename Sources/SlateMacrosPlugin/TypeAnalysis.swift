import SlateCodeModel
import SwiftSyntax

/// How a property's value is written to and read from its column.
enum ColumnStorage: Equatable {
    /// The type's own `SQLBindable` / `SQLExtractable` conformance.
    case plain
    /// JSON text through `JSONEncoded`.
    case json
    /// A `Date` with an explicit `DateStrategy` expression, such as `.unixSeconds`.
    case date(strategy: String)
    /// A `UUID` with an explicit `UUIDStorage` expression, such as `.blob`.
    case uuid(storage: String)
}

/// The SQL type of a column: known when the macro expands, or computed at run time from the
/// Swift type for types the macro cannot see (user enums and value types).
enum SQLTypeSpec: Equatable {
    case literal(String)
    case inferred(swiftType: String)

    var expression: String {
        switch self {
        case .literal(let text): return SwiftLiteral.string(text)
        case .inferred(let type): return "Slate.SQLColumnType.declaredType(for: \(type).self)"
        }
    }
}

/// What the macro learned from a property's type.
struct TypeInfo {
    /// Whether the type is `T?` or `Optional<T>`.
    var isOptional = false
    /// The wrapped type, as written.
    var baseType: String
    /// The base type's simple name when it is a standard type the macro knows (`Int64`, `Date`).
    var knownName: String?
    /// The SQL type of the column.
    var sqlType: SQLTypeSpec = .literal("")
    /// Why the type cannot be stored, when it cannot.
    var problem: TypeProblem?

    /// Whether the base type is a Swift integer that can hold a rowid.
    var holdsRowID: Bool { knownName == "Int64" || knownName == "Int" }
}

enum TypeProblem {
    case unsupported(reason: String)
    case implicitlyUnwrapped
    case collection
}

enum TypeAnalysis {
    static let integerTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Bool",
    ]
    static let realTypes: Set<String> = ["Double", "Float", "Float32", "Float64"]
    static let textTypes: Set<String> = ["String", "URL", "Decimal", "UUID"]
    static let blobTypes: Set<String> = ["Data"]
    static let collectionNames: Set<String> = ["Array", "ContiguousArray", "Set", "Dictionary"]
    static let standardModules: Set<String> = ["Swift", "Foundation"]

    /// Analyzes `type` for a column stored as `storage`.
    static func analyze(_ type: TypeSyntax, storage: ColumnStorage) -> TypeInfo {
        var info = TypeInfo(baseType: type.trimmedDescription)
        var base = type
        if let optional = type.as(OptionalTypeSyntax.self) {
            info.isOptional = true
            base = optional.wrappedType
        } else if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
            let argument = arguments.first?.argument.as(TypeSyntax.self)
        {
            info.isOptional = true
            base = argument
        } else if type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            info.problem = .implicitlyUnwrapped
            return info
        }
        info.baseType = base.trimmedDescription
        if info.isOptional, base.is(OptionalTypeSyntax.self) || base.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            info.problem = .unsupported(reason: "nested optionals cannot be told apart from NULL")
            return info
        }
        if let reason = unsupportedReason(base) {
            info.problem = .unsupported(reason: reason)
            return info
        }
        let name = knownName(of: base)
        info.knownName = name
        switch storage {
        case .json:
            info.sqlType = .literal("TEXT")
            return info
        case .date:
            info.sqlType = .literal("")  // set by the caller from the strategy
            return info
        case .uuid(let storageExpression):
            info.sqlType = .literal(storageExpression.hasSuffix("blob") ? "BLOB" : "TEXT")
            return info
        case .plain:
            break
        }
        if isCollection(base) {
            if isByteArray(base) {
                info.sqlType = .literal("BLOB")
                info.knownName = "[UInt8]"
            } else {
                info.problem = .collection
            }
            return info
        }
        if let name {
            if integerTypes.contains(name) {
                info.sqlType = .literal("INTEGER")
            } else if realTypes.contains(name) {
                info.sqlType = .literal("REAL")
            } else if textTypes.contains(name) {
                info.sqlType = .literal("TEXT")
            } else if blobTypes.contains(name) {
                info.sqlType = .literal("BLOB")
            } else if name == "Date" {
                // Stored with the connection's DateStrategy: text, an integer or a real. NUMERIC
                // affinity keeps each as it is, where TEXT affinity would turn numbers into text.
                info.sqlType = .literal("DATETIME")
            }
            return info
        }
        info.sqlType = .inferred(swiftType: info.baseType)
        return info
    }

    /// The SQL type for a date stored with an explicit strategy expression.
    static func dateSQLType(strategy: String) -> String {
        if strategy.hasSuffix("iso8601") || strategy.hasSuffix("iso8601Milliseconds")
            || strategy.hasSuffix("iso8601Date")
        {
            return "TEXT"
        }
        if strategy.hasSuffix("unixSeconds") || strategy.hasSuffix("unixMilliseconds") { return "INTEGER" }
        if strategy.hasSuffix("julianDay") { return "REAL" }
        return "DATETIME"
    }

    /// The simple name of a standard type, `Swift.Int` and `Foundation.Date` included.
    static func knownName(of type: TypeSyntax) -> String? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            let name = identifier.name.text
            return isKnown(name) ? name : nil
        }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil,
            let module = member.baseType.as(IdentifierTypeSyntax.self), standardModules.contains(module.name.text)
        {
            let name = member.name.text
            return isKnown(name) ? name : nil
        }
        return nil
    }

    static func isKnown(_ name: String) -> Bool {
        integerTypes.contains(name) || realTypes.contains(name) || textTypes.contains(name)
            || blobTypes.contains(name) || name == "Date"
    }

    static func isCollection(_ type: TypeSyntax) -> Bool {
        if type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause != nil {
            return collectionNames.contains(identifier.name.text)
        }
        return false
    }

    static func isByteArray(_ type: TypeSyntax) -> Bool {
        if let array = type.as(ArrayTypeSyntax.self) {
            return knownName(of: array.element) == "UInt8"
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Array",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
            let element = arguments.first?.argument.as(TypeSyntax.self)
        {
            return knownName(of: element) == "UInt8"
        }
        return false
    }

    /// Why a type can never be a column, or `nil` when it may be one.
    static func unsupportedReason(_ type: TypeSyntax) -> String? {
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.count == 1, let element = tuple.elements.first, element.firstName == nil {
                return unsupportedReason(element.type)
            }
            return "tuples have no column representation"
        }
        if type.is(FunctionTypeSyntax.self) { return "functions cannot be stored" }
        if type.is(MetatypeTypeSyntax.self) { return "metatypes cannot be stored" }
        if type.is(SomeOrAnyTypeSyntax.self) || type.is(CompositionTypeSyntax.self) {
            return "an existential or opaque type has no fixed column type"
        }
        if type.is(AttributedTypeSyntax.self) { return "attributed types cannot be stored" }
        if let identifier = type.as(IdentifierTypeSyntax.self), ["Any", "AnyObject"].contains(identifier.name.text) {
            return "an existential or opaque type has no fixed column type"
        }
        if let array = type.as(ArrayTypeSyntax.self) { return unsupportedReason(array.element) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return unsupportedReason(dictionary.key) ?? unsupportedReason(dictionary.value)
        }
        return nil
    }
}
