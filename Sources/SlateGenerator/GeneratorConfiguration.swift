import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery

/// How `slate generate` writes code: style, names, type mapping and storage. Every property has a
/// default, so an empty configuration (or no `slate.json`) is valid.
///
/// Read from JSON with ``load(from:)``; every key is optional:
///
/// ```json
/// {
///   "style": "slate",
///   "databaseTypeName": "ChinookDatabase",
///   "accessLevel": "public",
///   "singularizeRecordNames": true,
///   "recordNames": { "Order Details": "OrderLine" },
///   "propertyNames": { "Order Details.UnitPrice": "price" },
///   "declaredTypes": { "NUMERIC": "Decimal", "DATETIME": "Date" },
///   "columnSuffixes": { "_uuid": "UUID", "URL": "URL", "_at": "Date" },
///   "columnTypes": { "Products.Discontinued": "Bool" },
///   "dateStorage": "iso8601",
///   "columnDateStorage": { "events.created": "unixSeconds" },
///   "uuidStorage": "blob",
///   "nestRecords": false,
///   "includeViews": true,
///   "includeVirtualTables": true,
///   "recordOperations": true,
///   "documentation": true,
///   "excludedTables": ["scratch"],
///   "rawFunctionPrefix": "sqlite3_",
///   "inputs": ["Resources/catalog.sqlite"]
/// }
/// ```
///
/// One stored property per key of `slate.json` (about 20): the file's keys are the type's shape.
public struct GeneratorConfiguration: Sendable, Hashable, Codable {
    /// What kind of code to write.
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        /// Records conforming to Slate's `Table` protocol, and a database type with typed table
        /// accessors. Needs the `Slate` library.
        case slate
        /// Plain records and functions that call only the SQLite C API. Needs nothing but SQLite.
        case raw
        /// Both: Slate records plus the C API functions for them.
        case both
    }

    /// The access level of the generated declarations.
    public enum AccessLevel: String, Sendable, Hashable, Codable, CaseIterable {
        /// `internal` (no modifier): usable inside the module that holds the code.
        case `internal`
        /// `public`: usable by clients of the module.
        case `public`
        /// `package`: usable by the modules of the same package.
        case `package`
    }

    /// How `Date` columns are stored.
    public enum DateStorage: String, Sendable, Hashable, Codable, CaseIterable {
        /// Whatever the connection's `DateStrategy` says (ISO-8601 text unless configured otherwise).
        /// In the raw style, where there is no connection configuration, ISO-8601 text.
        case connection
        /// ISO-8601 text, `YYYY-MM-DD HH:MM:SS` in UTC, with `.SSS` when there are milliseconds: the
        /// form of SQLite's `datetime()` for whole seconds.
        case iso8601
        /// Seconds since 1970 (INTEGER when whole, else REAL).
        case unixSeconds
        /// Milliseconds since 1970, INTEGER.
        case unixMilliseconds
        /// Julian day number, REAL.
        case julianDay
    }

    /// How `UUID` columns are stored.
    public enum UUIDStorage: String, Sendable, Hashable, Codable, CaseIterable {
        /// 36-character lowercase text (RFC 9562), matched in any letter case by Slate.
        case text
        /// 16 bytes.
        case blob
    }

    /// What to write. Default ``Style/slate``.
    public var style: Style = .slate
    /// The name of the database type (and the stem of raw function names), such as
    /// `"ChinookDatabase"`. Default: the input's file name in UpperCamelCase followed by
    /// `Database` (`chinook.sqlite` → `ChinookDatabase`).
    public var databaseTypeName: String?
    /// The access level of generated declarations. Default ``AccessLevel/internal``.
    public var accessLevel: AccessLevel = .internal
    /// Whether record type names are singular (`Customers` → `Customer`). Default `true`.
    public var singularizeRecordNames = true
    /// Record type names to use instead of the derived ones, keyed by table or view name. Default
    /// empty.
    public var recordNames: [String: String] = [:]
    /// Property names to use instead of the derived ones, keyed by `"table.column"`. Default empty.
    public var propertyNames: [String: String] = [:]
    /// Swift types for declared column types, keyed by the declared type in full (`"NUMERIC(10,2)"`)
    /// or by its name without parameters (`"NUMERIC"`), case-insensitively. They take precedence
    /// over the built-in mapping (`BOOL`/`BOOLEAN` → `Bool`; `DATE`/`DATETIME`/`TIMESTAMP` →
    /// `Date`; `UUID`/`GUID` → `UUID`; then by affinity: integer → `Int64`, text → `String`, real
    /// and numeric → `Double`, blob → `Data`, no type → `SQLValue`). Default empty.
    public var declaredTypes: [String: SwiftType] = [:]
    /// Swift types for columns whose name ends with a suffix, compared case-insensitively; the
    /// longest matching suffix wins, and suffixes win over declared types. Default empty.
    public var columnSuffixes: [String: SwiftType] = [:]
    /// Swift types for single columns, keyed by `"table.column"`; they win over everything else.
    /// Default empty.
    public var columnTypes: [String: SwiftType] = [:]
    /// How `Date` columns are stored. Default ``DateStorage/connection``.
    public var dateStorage: DateStorage = .connection
    /// How single `Date` columns are stored, keyed by `"table.column"` (case-insensitive); they win
    /// over ``dateStorage``. Default empty.
    public var columnDateStorage: [String: DateStorage] = [:]
    /// How `UUID` columns are stored. Default ``UUIDStorage/text``.
    public var uuidStorage: UUIDStorage = .text
    /// Whether record types are nested in the database type (`ChinookDatabase.Artist`), so two
    /// databases in one module can have tables of the same name. Default `false`.
    public var nestRecords = false
    /// Whether views get read-only records. Default `true`.
    public var includeViews = true
    /// Whether virtual tables (such as FTS5 tables) get records. Default `true`.
    public var includeVirtualTables = true
    /// Raw style only: whether the C-API functions are also attached to the record types
    /// (`Artist.fetch(in:)`, `artist.insert(into:)`). Default `true`. (Slate-style records use the
    /// library's statements: `Artist.all().fetchAll(db)`, `db.insert(artist)`.)
    public var recordOperations = true
    /// Whether DocC comments are written. Default `true`.
    public var documentation = true
    /// Tables and views to leave out, by name (case-insensitive). Default empty.
    public var excludedTables: [String] = []
    /// The prefix of raw-style function names. Default `"sqlite3_"`.
    public var rawFunctionPrefix = "sqlite3_"
    /// For the build-tool and command plugins: the files to generate from, relative to the
    /// target's directory. Default `nil`: every `.sqlite`, `.sqlite3`, `.db`, `.db3` and `.sql`
    /// file of the target. `slate generate` itself ignores it. SwiftPM runs a build-tool plugin
    /// again only when it re-plans the package, so touch `Package.swift` after changing this list.
    public var inputs: [String]?

    /// The default configuration.
    public init() {}

    /// How the `Date` column `column` of `table` is stored: ``columnDateStorage``, else ``dateStorage``.
    public func dateStorage(table: String, column: String) -> DateStorage {
        let key = "\(table).\(column)".lowercased()
        return columnDateStorage.first { $0.key.lowercased() == key }?.value ?? dateStorage
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case style, databaseTypeName, accessLevel, singularizeRecordNames, recordNames
        case propertyNames, declaredTypes, columnSuffixes, columnTypes, dateStorage, columnDateStorage, uuidStorage,
            nestRecords
        case includeViews, includeVirtualTables, recordOperations, documentation, excludedTables, rawFunctionPrefix
        case inputs
    }

    /// Decodes a configuration in which every key is optional. Unknown keys are an error, so a
    /// misspelled option is not silently ignored.
    public init(from decoder: any Decoder) throws {
        let defaults = GeneratorConfiguration()
        let known = try decoder.container(keyedBy: AnyKey.self)
        let unknown = known.allKeys.map(\.stringValue).filter { CodingKeys(rawValue: $0) == nil }
        if let first = unknown.sorted().first {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription: "unknown option \"\(first)\"; known options: "
                        + CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        style = try container.decodeIfPresent(Style.self, forKey: .style) ?? defaults.style
        databaseTypeName = try container.decodeIfPresent(String.self, forKey: .databaseTypeName)
        accessLevel = try container.decodeIfPresent(AccessLevel.self, forKey: .accessLevel) ?? defaults.accessLevel
        singularizeRecordNames = try container.decodeIfPresent(Bool.self, forKey: .singularizeRecordNames) ?? true
        recordNames = try container.decodeIfPresent([String: String].self, forKey: .recordNames) ?? [:]
        propertyNames = try container.decodeIfPresent([String: String].self, forKey: .propertyNames) ?? [:]
        declaredTypes = try container.decodeIfPresent([String: SwiftType].self, forKey: .declaredTypes) ?? [:]
        columnSuffixes = try container.decodeIfPresent([String: SwiftType].self, forKey: .columnSuffixes) ?? [:]
        columnTypes = try container.decodeIfPresent([String: SwiftType].self, forKey: .columnTypes) ?? [:]
        dateStorage = try container.decodeIfPresent(DateStorage.self, forKey: .dateStorage) ?? defaults.dateStorage
        columnDateStorage = try container.decodeIfPresent([String: DateStorage].self, forKey: .columnDateStorage) ?? [:]
        uuidStorage = try container.decodeIfPresent(UUIDStorage.self, forKey: .uuidStorage) ?? defaults.uuidStorage
        nestRecords = try container.decodeIfPresent(Bool.self, forKey: .nestRecords) ?? false
        includeViews = try container.decodeIfPresent(Bool.self, forKey: .includeViews) ?? true
        includeVirtualTables = try container.decodeIfPresent(Bool.self, forKey: .includeVirtualTables) ?? true
        recordOperations = try container.decodeIfPresent(Bool.self, forKey: .recordOperations) ?? true
        documentation = try container.decodeIfPresent(Bool.self, forKey: .documentation) ?? true
        excludedTables = try container.decodeIfPresent([String].self, forKey: .excludedTables) ?? []
        rawFunctionPrefix = try container.decodeIfPresent(String.self, forKey: .rawFunctionPrefix) ?? "sqlite3_"
        inputs = try container.decodeIfPresent([String].self, forKey: .inputs)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads a configuration from a JSON file.
    ///
    /// - Throws: ``GeneratorError/invalidConfiguration(path:reason:)`` when the file cannot be
    ///   read, is not JSON, has an unknown key, or a value of the wrong kind.
    public static func load(from url: URL) throws -> GeneratorConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GeneratorError.invalidConfiguration(
                path: url.path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(GeneratorConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw GeneratorError.invalidConfiguration(path: url.path, reason: Self.describe(error))
        } catch {
            throw GeneratorError.invalidConfiguration(path: url.path, reason: "\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "" : " at \"\(keys)\""
        }
        switch error {
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError as NSError? {
                return "not valid JSON\(path(context)): \(underlying.localizedDescription)"
            }
            return context.debugDescription + path(context)
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context.debugDescription + path(context)
        @unknown default:
            return "\(error)"
        }
    }
}

/// A Swift type a column can be mapped to. Its raw value is the Swift spelling, used in
/// configuration files: `"Int64"`, `"Date"`, `"[UInt8]"`.
public enum SwiftType: String, Sendable, Hashable, Codable, CaseIterable {
    /// `Int`.
    case int = "Int"
    /// `Int64`.
    case int64 = "Int64"
    /// `Int32`.
    case int32 = "Int32"
    /// `Int16`.
    case int16 = "Int16"
    /// `Int8`.
    case int8 = "Int8"
    /// `UInt`.
    case uint = "UInt"
    /// `UInt64`.
    case uint64 = "UInt64"
    /// `UInt32`.
    case uint32 = "UInt32"
    /// `UInt16`.
    case uint16 = "UInt16"
    /// `UInt8`.
    case uint8 = "UInt8"
    /// `Double`.
    case double = "Double"
    /// `Float`.
    case float = "Float"
    /// `String`.
    case string = "String"
    /// `Bool`.
    case bool = "Bool"
    /// `Data`.
    case data = "Data"
    /// `[UInt8]`.
    case bytes = "[UInt8]"
    /// `Date`.
    case date = "Date"
    /// `UUID`.
    case uuid = "UUID"
    /// `URL`.
    case url = "URL"
    /// `Decimal`.
    case decimal = "Decimal"
    /// Slate's boxed `SQLValue`, for columns of unknown type. In the raw style it becomes `String`.
    case sqlValue = "SQLValue"

    /// Decodes a type name; the error lists the valid names.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let type = SwiftType(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown Swift type \"\(text)\"; use one of "
                        + SwiftType.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        self = type
    }

    /// Whether the type is an integer type.
    public var isInteger: Bool {
        switch self {
        case .int, .int64, .int32, .int16, .int8, .uint, .uint64, .uint32, .uint16, .uint8: true
        default: false
        }
    }

    /// Whether the type is `Float` or `Double`.
    public var isFloatingPoint: Bool { self == .double || self == .float }
}

/// Why code could not be generated.
public enum GeneratorError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The configuration file is invalid.
    case invalidConfiguration(path: String, reason: String)
    /// An option has an invalid value.
    case invalidOption(String)
    /// The inputs define no table, view or virtual table: there is nothing to generate (an empty
    /// or comment-only `.sql` file, one holding only queries, an empty database file).
    case noTables(inputs: [String])

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidConfiguration(let path, let reason): "invalid configuration \(path): \(reason)"
        case .invalidOption(let reason): reason
        case .noTables(let inputs):
            "no tables found in \(inputs.joined(separator: ", ")): give a SQLite database or .sql files that create tables "
                + "(named queries for a database file go in a .sql file named after it, such as chinook.queries.sql, given with it)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
