import SwiftDiagnostics
import SwiftSyntax

/// Every diagnostic the macros emit.
enum TableDiagnostic: DiagnosticMessage {
    case notAStruct(kind: String)
    case genericType
    case noStoredProperties(typeName: String)
    case unsupportedType(property: String, type: String, reason: String)
    case implicitlyUnwrapped(property: String)
    case collectionNeedsJSON(property: String, type: String)
    case enumNotStorable(property: String, type: String, enumName: String, hasRawValue: Bool)
    case duplicateColumn(name: String, property: String, firstProperty: String)
    case missingTypeAnnotation(property: String)
    case ignoredWithoutDefault(property: String)
    case letWithInitialValue(property: String)
    case lazyProperty(property: String)
    case destructuringPattern
    case attributeOnNonProperty(attribute: String)
    case invalidArgument(attribute: String, argument: String, expected: String)
    case conflictingAttributes(property: String, first: String, second: String)
    case expansionFailed(source: String)

    var message: String {
        switch self {
        case .notAStruct(let kind):
            return "@Table applies to a struct, not \(kind): records are values that Slate decodes by position"
        case .genericType:
            return "@Table does not support generic types: a table's columns need concrete types"
        case .noStoredProperties(let typeName):
            return
                "'\(typeName)' has no stored properties to store as columns: @Table needs at least one stored, non-ignored property"
        case .unsupportedType(let property, let type, let reason):
            return
                "property '\(property)' has type '\(type)', which cannot be stored in a column: \(reason); mark it @Ignored or change its type"
        case .implicitlyUnwrapped(let property):
            return "property '\(property)' is implicitly unwrapped: declare it optional ('?') to store NULL"
        case .collectionNeedsJSON(let property, let type):
            return
                "property '\(property)' has collection type '\(type)', which has no column representation: store it as JSON with @Column(storage: .json)"
        case .enumNotStorable(let property, let type, let enumName, let hasRawValue):
            let remedy =
                hasRawValue
                ? "add SQLValueConvertible to its declaration (it then stores its raw value), or store the property"
                    + " as JSON with @Column(storage: .json)"
                : "give it a raw value and SQLValueConvertible, or store the property as JSON with"
                    + " @Column(storage: .json)"
            return
                "property '\(property)' has type '\(type)', but enum '\(enumName)' is not SQLValueConvertible, so it"
                + " cannot be stored in a column: \(remedy)"
        case .duplicateColumn(let name, let property, let firstProperty):
            return
                "property '\(property)' maps to column \"\(name)\", already used by '\(firstProperty)' (SQLite column names are case-insensitive); give one of them another name with @Column(\"…\")"
        case .missingTypeAnnotation(let property):
            return "property '\(property)' needs an explicit type annotation: @Table reads the column type from it"
        case .ignoredWithoutDefault(let property):
            return
                "ignored property '\(property)' needs a default value: records decoded from rows set only their columns"
        case .letWithInitialValue(let property):
            return
                "property '\(property)' is a 'let' with an initial value, so it cannot be read from the database; make it 'var', or mark it @Ignored"
        case .lazyProperty(let property):
            return "lazy property '\(property)' cannot be a column; mark it @Ignored"
        case .destructuringPattern:
            return "@Table does not support tuple patterns in property declarations; declare one property per column"
        case .attributeOnNonProperty(let attribute):
            return "@\(attribute) applies to a stored property of a @Table struct"
        case .invalidArgument(let attribute, let argument, let expected):
            return "@\(attribute) argument '\(argument)' must be \(expected)"
        case .conflictingAttributes(let property, let first, let second):
            return "property '\(property)' cannot be both @\(first) and @\(second)"
        case .expansionFailed(let source):
            return
                "@Table could not produce valid code for this struct (a bug in Slate; please report it with the struct): "
                + String(source.prefix(400))
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAStruct: id = "notAStruct"
        case .genericType: id = "genericType"
        case .noStoredProperties: id = "noStoredProperties"
        case .unsupportedType: id = "unsupportedType"
        case .implicitlyUnwrapped: id = "implicitlyUnwrapped"
        case .collectionNeedsJSON: id = "collectionNeedsJSON"
        case .enumNotStorable: id = "enumNotStorable"
        case .duplicateColumn: id = "duplicateColumn"
        case .missingTypeAnnotation: id = "missingTypeAnnotation"
        case .ignoredWithoutDefault: id = "ignoredWithoutDefault"
        case .letWithInitialValue: id = "letWithInitialValue"
        case .lazyProperty: id = "lazyProperty"
        case .destructuringPattern: id = "destructuringPattern"
        case .attributeOnNonProperty: id = "attributeOnNonProperty"
        case .invalidArgument: id = "invalidArgument"
        case .conflictingAttributes: id = "conflictingAttributes"
        case .expansionFailed: id = "expansionFailed"
        }
        return MessageID(domain: "SlateMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// Notes attached to diagnostics.
struct TableNote: NoteMessage {
    let message: String
    var noteID: MessageID { MessageID(domain: "SlateMacros", id: "note") }
}

/// Fix-it descriptions.
struct TableFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "SlateMacros", id: message) }
}
