import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// A value type that names the SQL type of the columns it is stored in, for tables Slate creates
/// from Swift types (`@Table` structs and ``CodableRecord`` types).
///
/// ```swift
/// struct Email: SQLValueConvertible, SQLColumnTypeProviding {
///     static let sqlColumnType = "TEXT"
///     …
/// }
/// ```
public protocol SQLColumnTypeProviding {
    /// The declared SQL type, such as `"TEXT"` or `"INTEGER"`.
    static var sqlColumnType: String { get }
}

/// The SQL column types Slate declares for Swift types.
///
/// | Swift type | SQL type |
/// | --- | --- |
/// | `Int`, `Int8`…`Int64`, `UInt`…`UInt64`, `Bool` | `INTEGER` |
/// | `Double`, `Float` | `REAL` |
/// | `String`, `URL`, `Decimal`, `UUID` | `TEXT` |
/// | `Data`, `[UInt8]` | `BLOB` |
/// | `Date` | `DATETIME` (numeric affinity: keeps text, integers and reals as the date strategy wrote them) |
/// | ``JSONStorable`` and ``JSONEncoded`` | `TEXT` |
/// | ``SQLColumnTypeProviding`` | its ``SQLColumnTypeProviding/sqlColumnType`` |
/// | `RawRepresentable` | its raw value's type |
/// | anything else | none (`""`): the column accepts any value |
///
/// Optionals have their wrapped type's SQL type.
public enum SQLColumnType {
    /// The declared SQL type for columns holding `type`, or `""` when Slate does not know one.
    public static func declaredType(for type: Any.Type) -> String {
        if let optional = type as? any OptionalTypeUnwrapping.Type { return declaredType(for: optional.wrappedType) }
        if let provider = type as? any SQLColumnTypeProviding.Type { return provider.sqlColumnType }
        if let known = known[ObjectIdentifier(type)] { return known }
        if type is any JSONStorable.Type || type is any JSONColumnMarker.Type { return "TEXT" }
        if let raw = type as? any RawRepresentable.Type { return rawValueType(raw) }
        return ""
    }

    private static func rawValueType<Value: RawRepresentable>(_ type: Value.Type) -> String {
        declaredType(for: Value.RawValue.self)
    }

    private static let known: [ObjectIdentifier: String] = {
        var types: [ObjectIdentifier: String] = [:]
        let integers: [Any.Type] = [
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self,
            UInt32.self, UInt64.self, Bool.self,
        ]
        for type in integers { types[ObjectIdentifier(type)] = "INTEGER" }
        for type in [Double.self, Float.self] as [Any.Type] { types[ObjectIdentifier(type)] = "REAL" }
        for type in [String.self, URL.self, Decimal.self, UUID.self] as [Any.Type] {
            types[ObjectIdentifier(type)] = "TEXT"
        }
        for type in [Data.self, [UInt8].self] as [Any.Type] { types[ObjectIdentifier(type)] = "BLOB" }
        types[ObjectIdentifier(Date.self)] = "DATETIME"
        return types
    }()
}

/// Lets generic code see through `Optional` at run time.
protocol OptionalTypeUnwrapping {
    static var wrappedType: Any.Type { get }
    /// `nil`, as this optional type.
    static var noneValue: Any { get }
}

extension Optional: OptionalTypeUnwrapping {
    static var wrappedType: Any.Type { Wrapped.self }
    static var noneValue: Any { Optional<Wrapped>.none as Any }
}

/// Marks ``JSONEncoded`` for ``SQLColumnType``, whatever its value type.
protocol JSONColumnMarker {}

extension JSONEncoded: JSONColumnMarker {}
