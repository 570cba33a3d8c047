import Foundation

/// A `Codable` type stored as JSON text.
///
/// Adopt it to bind and read your type directly; the JSON is queryable with SQLite's JSON
/// functions (`json_extract(column, '$.field')`):
///
/// ```swift
/// struct Address: Codable, JSONStorable { var city: String }
/// try db.execute("INSERT INTO person(address) VALUES (\(address))")
/// let city = try db.fetchValue(String.self, "SELECT json_extract(address, '$.city') FROM person")
/// ```
///
/// Keys are sorted, so equal values store equal text.
public protocol JSONStorable: Codable, SQLBindable, SQLExtractable {}

extension JSONStorable {
    public var sqlValue: SQLValue { get throws { try JSONCoding.encode(self) } }

    public init(sqlValue: SQLValue) throws {
        self = try JSONCoding.decode(Self.self, from: sqlValue)
    }
}

/// Wraps any `Codable` value, such as an array, set or dictionary, to store it as JSON text.
///
/// ```swift
/// try db.execute("INSERT INTO stream(points) VALUES (\(JSONEncoded(points)))")
/// let points = try db.fetchValue(JSONEncoded<[Point]>.self, "SELECT points FROM stream").value
/// ```
public struct JSONEncoded<Value: Codable>: SQLBindable, SQLExtractable {
    /// The wrapped value.
    public var value: Value

    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }

    public var sqlValue: SQLValue { get throws { try JSONCoding.encode(value) } }

    public init(sqlValue: SQLValue) throws {
        value = try JSONCoding.decode(Value.self, from: sqlValue)
    }
}

extension JSONEncoded: Equatable where Value: Equatable {}
extension JSONEncoded: Hashable where Value: Hashable {}
extension JSONEncoded: Sendable where Value: Sendable {}

package enum JSONCoding {
    package static func encode<Value: Encodable>(_ value: Value) throws -> SQLValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(value)
            return .text(String(decoding: data, as: UTF8.self))
        } catch {
            throw DatabaseError(resultCode: .mismatch, message: "cannot encode \(Value.self) as JSON: \(error)")
        }
    }

    package static func decode<Value: Decodable>(_ type: Value.Type, from value: SQLValue) throws -> Value {
        let data: Data
        switch value {
        case .text(let text): data = Data(text.utf8)
        case .blob(let blob): data = blob
        default: throw DatabaseError.conversionFailure(value, to: Value.self, reason: "expected JSON text")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw DatabaseError.conversionFailure(value, to: Value.self, reason: "invalid JSON: \(error)")
        }
    }
}
