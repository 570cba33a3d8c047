import CSQLite

/// Splits an SQL script into statements, each with the line it starts on, so a failing statement
/// can be reported with its file and line.
///
/// A statement ends at a semicolon outside quotes and comments where SQLite agrees the text so far
/// is complete (`sqlite3_complete`), so the semicolons inside a `CREATE TRIGGER … BEGIN … END` body
/// do not split it. Text after the last semicolon is a final statement unless it is only
/// whitespace and comments.
struct SQLScript {
    /// One statement of a script.
    struct Statement: Equatable {
        /// The statement's text, from its first token to its semicolon (included when present).
        var text: String
        /// The 1-based line the statement starts on.
        var line: Int
        /// The statement's bytes in the script (UTF-8 offsets), trailing whitespace excluded.
        var range: Range<Int> = 0..<0
    }

    /// The statements of `script`, in order.
    static func statements(in script: String) -> [Statement] {
        let bytes = Array(script.utf8)
        var statements: [Statement] = []
        var index = 0
        var line = 1
        var start: Int?
        var startLine = 1

        func emit(upTo end: Int) {
            guard let begin = start else { return }
            var last = end
            while last > begin, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[last - 1]) { last -= 1 }
            statements.append(
                Statement(
                    text: String(decoding: bytes[begin..<last], as: UTF8.self), line: startLine, range: begin..<last))
            start = nil
        }
        func begin() {
            if start == nil {
                start = index
                startLine = line
            }
        }

        while index < bytes.count {
            let byte = bytes[index]
            let next: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch byte {
            case 0x0A:
                line += 1
                index += 1
            case 0x20, 0x09, 0x0D, 0x0C:
                index += 1
            case 0x2D where next == 0x2D:  // -- comment to the end of the line
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            case 0x2F where next == 0x2A:  // /* comment */
                index += 2
                while index < bytes.count
                    && !(bytes[index] == 0x2A && index + 1 < bytes.count && bytes[index + 1] == 0x2F)
                {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                index = min(bytes.count, index + 2)
            case 0x27, 0x22, 0x60, 0x5B:  // 'string', "identifier", `identifier`, [identifier]
                begin()
                let close: UInt8 = byte == 0x5B ? 0x5D : byte
                index += 1
                while index < bytes.count {
                    if bytes[index] == 0x0A { line += 1 }
                    if bytes[index] == close {
                        if byte != 0x5B, index + 1 < bytes.count, bytes[index + 1] == close {
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index = min(bytes.count, index + 1)
            case 0x3B:  // ;
                if let begin = start {
                    let candidate = bytes[begin...index]
                    let isComplete = (Array(candidate) + [0]).withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) { sqlite3_complete($0.baseAddress) != 0 }
                    }
                    index += 1
                    if isComplete { emit(upTo: index) }
                } else {
                    index += 1  // an empty statement
                }
            default:
                begin()
                index += 1
            }
        }
        emit(upTo: bytes.count)
        return statements
    }
}
