import CSQLite
import Foundation
import SlateCore

/// A row's primary key as bytes, the same on every replica: each key value's storage class and
/// exact bytes, in column order (the changeset record format). The clock table and the conflict
/// reports store keys this way.
package enum SyncKey {
    /// The key of `values` (`sqlite3_value *`, as a changeset cursor or a statement hands them).
    package static func encode(raw values: [OpaquePointer?]) -> Data {
        var bytes: [UInt8] = []
        for value in values {
            guard let value else {
                bytes.append(0)
                continue
            }
            let type = sqlite3_value_type(value)
            bytes.append(UInt8(truncatingIfNeeded: type))
            switch type {
            case SQLITE_INTEGER: appendBigEndian(UInt64(bitPattern: sqlite3_value_int64(value)), to: &bytes)
            case SQLITE_FLOAT: appendBigEndian(sqlite3_value_double(value).bitPattern, to: &bytes)
            case SQLITE_TEXT, SQLITE_BLOB:
                let pointer =
                    type == SQLITE_TEXT
                    ? sqlite3_value_text(value).map(UnsafeRawPointer.init) : sqlite3_value_blob(value)
                let count = Int(sqlite3_value_bytes(value))
                appendBigEndian(UInt64(count), to: &bytes, width: 4)
                if let pointer, count > 0 {
                    bytes.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: count))
                }
            default: break
            }
        }
        return Data(bytes)
    }

    /// The key of `values`.
    package static func encode(_ values: [SQLValue]) -> Data {
        var bytes: [UInt8] = []
        for value in values {
            switch value {
            case .null: bytes.append(UInt8(SQLITE_NULL))
            case .integer(let integer):
                bytes.append(UInt8(SQLITE_INTEGER))
                appendBigEndian(UInt64(bitPattern: integer), to: &bytes)
            case .real(let real):
                bytes.append(UInt8(SQLITE_FLOAT))
                appendBigEndian(real.bitPattern, to: &bytes)
            case .text(let text):
                bytes.append(UInt8(SQLITE_TEXT))
                appendBigEndian(UInt64(text.utf8.count), to: &bytes, width: 4)
                bytes.append(contentsOf: text.utf8)
            case .blob(let data):
                bytes.append(UInt8(SQLITE_BLOB))
                appendBigEndian(UInt64(data.count), to: &bytes, width: 4)
                bytes.append(contentsOf: data)
            }
        }
        return Data(bytes)
    }

    /// The values of a key made by `encode`; `nil` for bytes that are not one.
    package static func decode(_ data: Data) -> [SQLValue]? {
        let bytes = [UInt8](data)
        var values: [SQLValue] = []
        var index = 0
        func integer(_ width: Int) -> UInt64? {
            guard index + width <= bytes.count else { return nil }
            var value: UInt64 = 0
            for byte in bytes[index..<(index + width)] { value = value << 8 | UInt64(byte) }
            index += width
            return value
        }
        while index < bytes.count {
            let type = Int32(bytes[index])
            index += 1
            switch type {
            case SQLITE_NULL: values.append(.null)
            case SQLITE_INTEGER:
                guard let bits = integer(8) else { return nil }
                values.append(.integer(Int64(bitPattern: bits)))
            case SQLITE_FLOAT:
                guard let bits = integer(8) else { return nil }
                values.append(.real(Double(bitPattern: bits)))
            case SQLITE_TEXT, SQLITE_BLOB:
                guard let length = integer(4), index + Int(length) <= bytes.count else { return nil }
                let payload = Array(bytes[index..<(index + Int(length))])
                index += Int(length)
                if type == SQLITE_TEXT, let text = String(validating: payload, as: UTF8.self) {
                    values.append(.text(text))
                } else {
                    values.append(.blob(Data(payload)))
                }
            default: return nil
            }
        }
        return values
    }

    private static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8], width: Int = 8) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
