import Foundation

/// For each line of Swift code: whether it starts and ends at the top level (outside every
/// bracket, string and comment), and whether it holds `await` at the top level of a statement.
struct LineStructure {
    var topLevelAtStart: [Bool]
    var topLevelAtEnd: [Bool]
}

/// Scans Swift source for brackets, strings (with interpolations, raw and multi-line) and comments.
func scanStructure(_ lines: [String]) -> LineStructure {
    enum Context {
        case code
        case blockComment(depth: Int)
        case string(hashes: Int, multiline: Bool)
        case interpolation(parentheses: Int)
    }
    var stack: [Context] = [.code]
    var depth = 0
    var atStart: [Bool] = []
    var atEnd: [Bool] = []
    func topLevel() -> Bool { stack.count == 1 && depth == 0 }

    for line in lines {
        atStart.append(topLevel())
        let bytes = Array(line.utf8)
        var i = 0
        func peek(_ offset: Int) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }
        func countHashes(from start: Int) -> Int {
            var j = start
            while j < bytes.count, bytes[j] == UInt8(ascii: "#") { j += 1 }
            return j - start
        }
        func isTripleQuote(at position: Int) -> Bool {
            position + 2 < bytes.count && bytes[position] == UInt8(ascii: "\"")
                && bytes[position + 1] == UInt8(ascii: "\"") && bytes[position + 2] == UInt8(ascii: "\"")
        }
        scanning: while i < bytes.count {
            let byte = bytes[i]
            switch stack[stack.count - 1] {
            case .code, .interpolation:
                if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") { break scanning }
                if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                    stack.append(.blockComment(depth: 1))
                    i += 2
                    continue
                }
                if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"") {
                    let hashes = countHashes(from: i)
                    let quote = i + hashes
                    if quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") {
                        let multiline = isTripleQuote(at: quote)
                        stack.append(.string(hashes: hashes, multiline: multiline))
                        i = quote + (multiline ? 3 : 1)
                        continue
                    }
                    i += max(hashes, 1)
                    continue
                }
                let isOpening = byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
                let isClosing = byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                if case .interpolation(let parentheses) = stack[stack.count - 1] {
                    if byte == UInt8(ascii: "(") {
                        stack[stack.count - 1] = .interpolation(parentheses: parentheses + 1)
                    } else if byte == UInt8(ascii: ")") {
                        if parentheses == 1 {
                            stack.removeLast()
                        } else {
                            stack[stack.count - 1] = .interpolation(parentheses: parentheses - 1)
                        }
                    }
                } else if isOpening {
                    depth += 1
                } else if isClosing {
                    depth = max(0, depth - 1)
                }
                i += 1
            case .blockComment(let commentDepth):
                if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                    stack[stack.count - 1] = .blockComment(depth: commentDepth + 1)
                    i += 2
                    continue
                }
                if byte == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                    if commentDepth == 1 {
                        stack.removeLast()
                    } else {
                        stack[stack.count - 1] = .blockComment(depth: commentDepth - 1)
                    }
                    i += 2
                    continue
                }
                i += 1
            case .string(let hashes, let multiline):
                if byte == UInt8(ascii: "\\"), countHashes(from: i + 1) >= hashes {
                    let next = i + 1 + hashes
                    if next < bytes.count, bytes[next] == UInt8(ascii: "(") {
                        stack.append(.interpolation(parentheses: 1))
                        i = next + 1
                    } else {
                        i = next + 1  // an escaped character
                    }
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    let quoteLength = multiline ? 3 : 1
                    if !multiline || isTripleQuote(at: i), countHashes(from: i + quoteLength) >= hashes {
                        stack.removeLast()
                        i += quoteLength + hashes
                        continue
                    }
                }
                i += 1
            }
        }
        // A single-line string cannot continue on the next line.
        if case .string(_, false) = stack[stack.count - 1] { stack.removeLast() }
        atEnd.append(topLevel())
    }
    return LineStructure(topLevelAtStart: atStart, topLevelAtEnd: atEnd)
}

let declarationKeywords: Set<String> = [
    "struct", "class", "enum", "actor", "protocol", "extension", "func", "typealias", "import",
    "macro", "precedencegroup", "operator",
]
let declarationModifiers: Set<String> = [
    "public", "private", "fileprivate", "internal", "package", "open", "final", "indirect",
    "nonisolated", "dynamic", "prefix", "postfix", "infix", "convenience", "consuming",
]

/// What the first words of a line say: a declaration keyword, only attributes (the declaration
/// continues on the next line), or something else.
enum LineStart {
    case declaration(keyword: String)
    case attributesOnly, other
}

func classifyLineStart(_ line: String) -> LineStart {
    var rest = Substring(line.trimmingCharacters(in: .whitespaces))
    var sawAttribute = false
    while true {
        if rest.hasPrefix("@") {
            rest = rest.dropFirst().drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            if rest.first == "(" {
                var depth = 0
                var end = rest.startIndex
                for index in rest.indices {
                    if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1 }
                    if depth == 0 {
                        end = index
                        break
                    }
                }
                rest = depth == 0 ? rest[rest.index(after: end)...] : ""
            }
            rest = rest.drop { $0 == " " }
            sawAttribute = true
            continue
        }
        let word = rest.prefix { $0.isLetter || $0 == "_" }
        if declarationModifiers.contains(String(word)) {
            rest = rest.dropFirst(word.count)
            if rest.hasPrefix("(unsafe)") || rest.hasPrefix("(set)") { rest = rest.drop { $0 != ")" }.dropFirst() }
            rest = rest.drop { $0 == " " }
            continue
        }
        if declarationKeywords.contains(String(word)),
            rest.dropFirst(word.count).first.map({ $0 == " " || $0 == "<" }) ?? true
        {
            return .declaration(keyword: String(word))
        }
        if rest.isEmpty || rest.hasPrefix("//") { return sawAttribute ? .attributesOnly : .other }
        return .other
    }
}

/// A run of a block's lines that is either a file-scope declaration or statements.
struct Chunk {
    var isDeclaration: Bool
    var firstIndex: Int
    var lines: [String]
}

/// Splits a block into file-scope declarations (types, extensions, functions, imports, with
/// their attributes) and the statements between them.
func split(_ block: CodeBlock) -> [Chunk] {
    let lines = block.lines
    let structure = scanStructure(lines)
    var chunks: [Chunk] = []
    func append(_ isDeclaration: Bool, _ range: ClosedRange<Int>) {
        if !isDeclaration, let last = chunks.last, !last.isDeclaration,
            last.firstIndex + last.lines.count == range.lowerBound
        {
            chunks[chunks.count - 1].lines += lines[range]
        } else {
            chunks.append(Chunk(isDeclaration: isDeclaration, firstIndex: range.lowerBound, lines: Array(lines[range])))
        }
    }
    var index = 0
    while index < lines.count {
        guard structure.topLevelAtStart[index] else {
            append(false, index...index)
            index += 1
            continue
        }
        // Attributes alone on their lines belong to the declaration below them.
        var keywordLine = index
        var start = classifyLineStart(lines[index])
        while case .attributesOnly = start, keywordLine + 1 < lines.count, structure.topLevelAtEnd[keywordLine] {
            keywordLine += 1
            start = classifyLineStart(lines[keywordLine])
        }
        guard case .declaration = start else {
            append(false, index...index)
            index += 1
            continue
        }
        var end = keywordLine
        while end + 1 < lines.count, !structure.topLevelAtEnd[end] { end += 1 }
        append(true, index...end)
        index = end + 1
    }
    return chunks
}

/// Whether a statement chunk awaits at its top level (which makes top-level code asynchronous).
func awaitsAtTopLevel(_ chunk: Chunk) -> Bool {
    let structure = scanStructure(chunk.lines)
    let pattern = try! NSRegularExpression(pattern: #"\bawait\b|\basync\s+let\b"#)
    for (index, line) in chunk.lines.enumerated() where structure.topLevelAtStart[index] {
        let code = line.components(separatedBy: "//").first ?? line
        if pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil { return true }
    }
    return false
}
