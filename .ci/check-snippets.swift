// Compiles (to SIL) every ```swift block of the documentation against the freshly built Slate modules,
// and checks that the expected compile failures (Tests/CompileFailures) still fail. Run it through
// .ci/check-snippets.sh, which builds this file and finds the modules; see that script and
// docs/snippets/README.md for the rules.
//
// Usage: check-snippets [options] FILE...
//   FILE.md                      a document whose ```swift blocks are checked
//   FILE.swift                   a compile-failure case: it must not compile, with the errors its
//                                `// expected-error: TEXT` comments name on their own lines
//   --root DIR                   the repository (default: the current directory)
//   --contexts DIR               per-document context files (default: docs/snippets)
//   --work DIR                   where the generated files go (default: .build/snippets)
//   -I DIR                       a module directory (repeatable)
//   --build-description FILE     SwiftPM's build description (.build/debug.yaml): the C module
//                                flags (-Xcc …) and macro plugins of the command that built
//                                SlateMacros into the -I directory are used for every snippet
//   --plugin PATH#MODULE         a macro plugin executable (repeatable)
//   --flag ARG                   an extra argument for swiftc (repeatable)
//   --trait-build NAME=DIR,FILE  the modules (DIR) and build description (FILE) of a build with
//                                package trait NAME, for blocks marked `snippet-check: traits NAME`
//   --allow-missing-traits       report blocks whose trait build is missing instead of failing
//   --manifest-api DIR           the toolchain's PackageDescription module directory
//   --swiftc PATH                the compiler (default: swiftc)
//   --jobs N                     parallel compiler runs (default: the number of cores)
//   --verbose                    print every unit with its time
//   --check-contexts             fail on a context file whose document has no Swift block (when
//                                FILE... are all the documents)

import Foundation

// MARK: - Options

struct Options {
    var root = FileManager.default.currentDirectoryPath
    var contexts = "docs/snippets"
    var work = ".build/snippets"
    var moduleDirectories: [String] = []
    var plugins: [String] = []
    var flags: [String] = []
    var manifestAPI: String?
    var buildDescription: String?
    var traitBuilds: [String: (modules: String, description: String)] = [:]
    var allowMissingTraits = false
    var swiftc = "swiftc"
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var verbose = false
    var checkContexts = false
    var documents: [String] = []
    var failureCases: [String] = []

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        func value(_ name: String) -> String {
            guard let value = iterator.next() else { fail("\(name) needs a value") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--root": options.root = value(argument)
            case "--contexts": options.contexts = value(argument)
            case "--work": options.work = value(argument)
            case "-I": options.moduleDirectories.append(value(argument))
            case "--plugin": options.plugins.append(value(argument))
            case "--flag": options.flags.append(value(argument))
            case "--manifest-api": options.manifestAPI = value(argument)
            case "--build-description": options.buildDescription = value(argument)
            case "--trait-build":
                let spec = value(argument)
                guard let equals = spec.firstIndex(of: "="), let comma = spec.lastIndex(of: ","), equals < comma else {
                    fail("--trait-build wants NAME=MODULES_DIR,BUILD_DESCRIPTION, not \(spec)")
                }
                options.traitBuilds[String(spec[..<equals])] = (
                    String(spec[spec.index(after: equals)..<comma]), String(spec[spec.index(after: comma)...])
                )
            case "--allow-missing-traits": options.allowMissingTraits = true
            case "--swiftc": options.swiftc = value(argument)
            case "--jobs": options.jobs = max(1, Int(value(argument)) ?? 1)
            case "--verbose": options.verbose = true
            case "--check-contexts": options.checkContexts = true
            case let file where file.hasSuffix(".md"): options.documents.append(file)
            case let file where file.hasSuffix(".swift"): options.failureCases.append(file)
            default: fail("unknown argument \(argument)")
            }
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("check-snippets: \(message)\n".utf8))
    exit(2)
}

// MARK: - Markdown

/// A fenced code block of a document.
struct CodeBlock {
    var document: String
    /// The info string's first word, lowercased; empty when the fence has none.
    var language: String
    /// The 1-based line of the opening fence.
    var fenceLine: Int
    /// The block's lines, without the fence's indentation.
    var lines: [String]
    /// Set by a `<!-- snippet-check: skip REASON -->` comment on the line before the fence.
    var skipReason: String?
    /// Set by `<!-- snippet-check: traits NAME -->`: the block needs a build with that package trait.
    var traits: String?
    /// A `snippet-check` comment this checker does not understand.
    var unknownDirective: String?

    /// The 1-based document line of `lines[index]`.
    func documentLine(_ index: Int) -> Int { fenceLine + 1 + index }
    var location: String { "\(document):\(fenceLine)" }
}

/// The fenced code blocks of a Markdown document, and its inline code spans with their lines.
func parseMarkdown(_ text: String, document: String) -> (blocks: [CodeBlock], inlineCode: [(line: Int, code: String)]) {
    let lines = text.components(separatedBy: "\n")
    var blocks: [CodeBlock] = []
    var inline: [(Int, String)] = []
    var index = 0
    let directivePattern = try! NSRegularExpression(pattern: #"^\s*<!--\s*snippet-check:\s*(\w+)\b\s*(.*?)\s*-->\s*$"#)
    while index < lines.count {
        let line = lines[index]
        let trimmed = line.drop { $0 == " " }
        let indent = line.count - trimmed.count
        if let fenceCharacter = trimmed.first, fenceCharacter == "`" || fenceCharacter == "~" {
            let fenceLength = trimmed.prefix { $0 == fenceCharacter }.count
            if fenceLength >= 3 {
                let info = trimmed.dropFirst(fenceLength).trimmingCharacters(in: .whitespaces)
                let language = String(info.prefix { !$0.isWhitespace && $0 != "{" && $0 != "," }).lowercased()
                var previous = index - 1
                while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
                var skipReason: String?
                var traits: String?
                var unknownDirective: String?
                if previous >= 0 {
                    let candidate = lines[previous]
                    let range = NSRange(candidate.startIndex..., in: candidate)
                    if let match = directivePattern.firstMatch(in: candidate, range: range),
                        let nameRange = Range(match.range(at: 1), in: candidate),
                        let argumentRange = Range(match.range(at: 2), in: candidate)
                    {
                        let argument = String(candidate[argumentRange])
                        switch candidate[nameRange] {
                        case "skip": skipReason = argument
                        case "traits": traits = argument
                        default: unknownDirective = String(candidate[nameRange])
                        }
                    }
                }
                var content: [String] = []
                var end = index + 1
                while end < lines.count {
                    let closing = lines[end].drop { $0 == " " }
                    if closing.prefix(while: { $0 == fenceCharacter }).count >= fenceLength,
                        closing.drop(while: { $0 == fenceCharacter }).trimmingCharacters(in: .whitespaces).isEmpty
                    {
                        break
                    }
                    var contentLine = Substring(lines[end])
                    var removed = 0
                    while removed < indent, contentLine.first == " " {
                        contentLine = contentLine.dropFirst()
                        removed += 1
                    }
                    content.append(String(contentLine))
                    end += 1
                }
                blocks.append(
                    CodeBlock(
                        document: document, language: language, fenceLine: index + 1, lines: content,
                        skipReason: skipReason, traits: traits, unknownDirective: unknownDirective))
                index = end + 1
                continue
            }
        }
        // Inline code spans: `…` on one line (enough for lint purposes).
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "`") {
            let ticks = rest[open...].prefix { $0 == "`" }
            let afterOpen = rest[open...].dropFirst(ticks.count)
            guard let close = afterOpen.range(of: String(ticks)) else { break }
            inline.append((index + 1, String(afterOpen[..<close.lowerBound])))
            rest = afterOpen[close.upperBound...]
        }
        index += 1
    }
    return (blocks, inline)
}

// MARK: - Swift structure

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

// MARK: - Units

/// What one compiler run checks: a document's context and one or more of its blocks, or a
/// package manifest, or a compile-failure case.
struct Unit {
    enum Kind { case snippets, manifest, failureCase }
    var kind: Kind
    /// The package trait whose build the unit compiles against; `nil` for the default build.
    var traits: String? = nil
    var name: String
    var document: String
    var blocks: [CodeBlock]
    var source = ""
    var file = ""
}

/// `Sources/Slate/Documentation.docc/GettingStarted.md` → `Slate/GettingStarted.swift`;
/// `README.md` → `README.swift`; `Benchmarks/README.md` → `Benchmarks/README.swift`.
func contextName(for document: String) -> String {
    let components = document.split(separator: "/").map(String.init)
    let base = (components.last ?? document).replacingOccurrences(of: ".md", with: "")
    if components.count == 4, components[0] == "Sources", components[2].hasSuffix(".docc") {
        return "\(components[1])/\(base).swift"
    }
    return (components.dropLast() + [base + ".swift"]).joined(separator: "/")
}

/// The parameter clause of `func snippetFixtures(…)` in a context: the names every snippet of the
/// document may use without declaring them.
func fixtureParameters(in context: String) -> String {
    guard let start = context.range(of: "func snippetFixtures(") else { return "" }
    var depth = 1
    var index = start.upperBound
    var parameters = ""
    while index < context.endIndex {
        let character = context[index]
        if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
        if depth == 0 { break }
        parameters.append(character)
        index = context.index(after: index)
    }
    return parameters.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}

func identifier(_ text: String) -> String {
    String(text.map { $0.isLetter || $0.isNumber ? $0 : "_" })
}

func firstCodeLine(_ block: CodeBlock) -> String {
    block.lines.first { line in
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && !trimmed.hasPrefix("//")
    }?.trimmingCharacters(in: .whitespaces) ?? ""
}

/// Groups a document's Swift blocks: a block that starts with `import` starts a new program, and
/// the blocks after it continue that program (they see its declarations); so does a block that
/// needs another build (package traits) than the block before it. A block that imports
/// PackageDescription is a package manifest on its own.
func makeUnits(document: String, blocks: [CodeBlock], context: (path: String, text: String)?) -> [Unit] {
    // A context can set the traits of every block of its document: `// snippet-check: traits NAME`.
    let documentTraits = context.flatMap { context in
        context.text.components(separatedBy: "\n").lazy.compactMap { line -> String? in
            guard let range = line.range(of: "// snippet-check: traits ") else { return nil }
            return line[range.upperBound...].trimmingCharacters(in: .whitespaces)
        }.first
    }
    var units: [Unit] = []
    for block in blocks {
        let traits = block.traits ?? documentTraits
        if block.lines.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "import PackageDescription" }) {
            units.append(
                Unit(kind: .manifest, name: "\(document):\(block.fenceLine)", document: document, blocks: [block]))
            continue
        }
        let startsProgram = firstCodeLine(block).hasPrefix("import ")
        if startsProgram || units.last?.kind != .snippets || units.last?.traits != traits {
            units.append(
                Unit(
                    kind: .snippets, traits: traits, name: "\(document):\(block.fenceLine)", document: document,
                    blocks: [block]))
        } else {
            units[units.count - 1].blocks.append(block)
        }
    }
    for index in units.indices {
        units[index].source = generateSource(units[index], context: context)
        units[index].file = identifier(document) + "-\(units[index].blocks[0].fenceLine).swift"
    }
    return units
}

func generateSource(_ unit: Unit, context: (path: String, text: String)?) -> String {
    var out = "// Generated by .ci/check-snippets.swift from \(unit.document); do not edit.\n"
    func located(_ file: String, _ line: Int, _ lines: [String]) {
        out += "#sourceLocation(file: \"\(file)\", line: \(line))\n"
        out += lines.joined(separator: "\n") + "\n"
        out += "#sourceLocation()\n"
    }
    if unit.kind == .manifest {
        let block = unit.blocks[0]
        located(block.document, block.documentLine(0), block.lines)
        return out
    }
    var parameters = ""
    if let context {
        located(context.path, 1, context.text.components(separatedBy: "\n"))
        parameters = fixtureParameters(in: context.text)
    } else {
        out += "import Foundation\nimport Slate\n"
    }
    var functions = ""
    for block in unit.blocks {
        let chunks = split(block)
        for chunk in chunks where chunk.isDeclaration {
            located(block.document, block.documentLine(chunk.firstIndex), chunk.lines)
        }
        let statements = chunks.filter { !$0.isDeclaration }
        guard statements.contains(where: { $0.lines.contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty } })
        else { continue }
        let isAsync = statements.contains(where: awaitsAtTopLevel)
        functions += "func snippet_line\(block.fenceLine)(\(parameters)) \(isAsync ? "async " : "")throws {\n"
        for chunk in statements {
            functions += "#sourceLocation(file: \"\(block.document)\", line: \(block.documentLine(chunk.firstIndex)))\n"
            functions += chunk.lines.joined(separator: "\n") + "\n"
            functions += "#sourceLocation()\n"
        }
        functions += "}\n"
    }
    return out + functions
}

// MARK: - Canonical spellings

/// Spellings the documentation must not show: removed APIs, and second ways to do a job that has
/// a canonical spelling.
let forbiddenSpellings: [(pattern: NSRegularExpression, message: String)] = [
    (
        #"(?<![\w)\]}.])[A-Z]\w*\.fetch(All|One|Count|Cursor)\("#,
        "fetching from the type directly was removed: write `Player.all().fetchAll(db)` (or `.where { … }.fetchAll(db)`)"
    ),
    (#"\b[a-z]\w*\.find\("#, "`db.find(…)` was removed: write `Player.find(key).fetchOne(db)`"),
    (#"\.find\([^)]*\bin:"#, "`Player.find(_:in:)` was removed: write `Player.find(key).fetchOne(db)`"),
    (#"\.create\(table:"#, "`db.create(table:)` was removed: write `db.createTable(for: Player.self)`"),
    (#"belongingTo:"#, "`db.fetchAll(_:belongingTo:)` was removed: write `Album.belonging(to: artist).fetchAll(db)`"),
    (
        #"referencedBy:"#,
        "`db.fetchOne(_:referencedBy:)` was removed: write `Artist.referenced(by: album).fetchOne(db)`"
    ),
    (
        #"\b(ColumnDescriptor|TableDefinition|columnDescriptors)\b"#,
        "the column-descriptor model was removed: tables declare a `TableSchema`"
    ),
    (#"\bbindColumns\b"#, "records hand their values out with `encode(to:)`, not `bindColumns`"),
    (#"\.fetch\(in:"#, "generated `Artist.fetch(in:)` was removed: write `Artist.all().fetchAll(db)`"),
    (
        #"\.fetch(All|One|Count|Cursor)\(\)"#,
        "a fetch without a connection (generated accessors) was removed: pass the database, `Artist.all().fetchAll(db)`"
    ),
    (#"\b[a-z]\w*\.upsert\("#, "upserts are statements: write `Player.upsert(record).execute(db)`"),
    (
        #"\b[a-z]\w*\.insert\([^)]*\bor:"#,
        "conflict handling is on the statement: write `Player.insert(record).onConflict…(…).execute(db)`"
    ),
].map { (try! NSRegularExpression(pattern: $0.0), $0.1) }

func lint(_ text: String) -> [String] {
    forbiddenSpellings.compactMap { rule in
        rule.pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil ? nil : rule.message
    }
}

// MARK: - Running the compiler

struct Diagnostic {
    var file: String
    var line: Int
    var severity: String
    var message: String
    var text: String
    /// The lines of the notes that follow the diagnostic ("consumed here").
    var noteLines: [Int] = []
}

/// Warnings that every snippet has by nature (values shown but not used afterwards).
let allowedWarnings = try! NSRegularExpression(
    pattern: #"was never used|is unused|never read|was written to, but never read"#)

func parseDiagnostics(_ output: String) -> [Diagnostic] {
    let pattern = try! NSRegularExpression(pattern: #"^(.+?):(\d+):(\d+): (error|warning|note|remark): (.*)$"#)
    var diagnostics: [Diagnostic] = []
    for line in output.components(separatedBy: "\n") {
        let range = NSRange(line.startIndex..., in: line)
        if let match = pattern.firstMatch(in: line, range: range) {
            func group(_ index: Int) -> String {
                Range(match.range(at: index), in: line).map { String(line[$0]) } ?? ""
            }
            let diagnostic = Diagnostic(
                file: group(1), line: Int(group(2)) ?? 0, severity: group(4), message: group(5), text: line)
            if diagnostic.severity == "note",
                let last = diagnostics.indices.last(where: { diagnostics[$0].severity != "note" })
            {
                diagnostics[last].noteLines.append(diagnostic.line)
            }
            diagnostics.append(diagnostic)
        } else if !diagnostics.isEmpty, !line.isEmpty {
            diagnostics[diagnostics.count - 1].text += "\n" + line
        }
    }
    return diagnostics
}

func run(_ executable: String, _ arguments: [String], in directory: String) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { return (127, "cannot run \(executable): \(error)") }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

struct BuildConfiguration {
    var moduleDirectories: [String]
    var flags: [String]
    var plugins: [String]
}

struct Outcome {
    var unit: Unit
    var passed: Bool
    var report: String
    var seconds: Double
    var note = ""
}

func compile(_ unit: Unit, options: Options) -> Outcome {
    let started = Date()
    let moduleCache = "\(options.work)/ModuleCache"
    // SIL, not just -typecheck: the ownership checker (a row that escapes), definite
    // initialization and other flow diagnostics run on SIL.
    var arguments = [
        "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-diagnostic-style", "llvm", "-module-cache-path",
        moduleCache,
    ]
    let path: String
    switch unit.kind {
    case .manifest:
        guard let manifestAPI = options.manifestAPI else {
            return Outcome(
                unit: unit, passed: false, report: "no --manifest-api to check a package manifest", seconds: 0)
        }
        path = "\(options.work)/\(unit.file)"
        // The PackageDescription API of the manifest's tools version (`traits:` needs 6.1).
        let toolsVersion =
            unit.blocks[0].lines.first { $0.hasPrefix("// swift-tools-version") }
            .flatMap { $0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) } ?? "6.0"
        arguments += [
            "-I", manifestAPI, "-Xfrontend", "-package-description-version", "-Xfrontend", toolsVersion, "-module-name",
            "main", path,
        ]
    case .snippets, .failureCase:
        path = unit.kind == .failureCase ? unit.document : "\(options.work)/\(unit.file)"
        arguments += ["-parse-as-library", "-module-name", "Snippets"]
        var build = BuildConfiguration(
            moduleDirectories: options.moduleDirectories, flags: options.flags, plugins: options.plugins)
        if let traits = unit.traits {
            guard let traitBuild = options.traitBuilds[traits] else {
                let message =
                    "no build with package trait \(traits): build it (see .ci/run) or pass --allow-missing-traits"
                return Outcome(
                    unit: unit, passed: options.allowMissingTraits, report: message, seconds: 0,
                    note: options.allowMissingTraits ? "not compiled: no build with trait \(traits)" : "")
            }
            guard let flags = buildFlags(description: traitBuild.description, directory: traitBuild.modules) else {
                return Outcome(
                    unit: unit, passed: false,
                    report: "\(traitBuild.description) has no command that built Slate into \(traitBuild.modules)",
                    seconds: 0)
            }
            build = BuildConfiguration(
                moduleDirectories: [traitBuild.modules], flags: flags.flags, plugins: flags.plugins)
        }
        for directory in build.moduleDirectories { arguments += ["-I", directory] }
        for plugin in build.plugins { arguments += ["-load-plugin-executable", plugin] }
        arguments += build.flags + [path]
    }
    if unit.kind != .failureCase {
        do {
            try unit.source.write(toFile: "\(options.root)/\(path)", atomically: true, encoding: .utf8)
        } catch {
            return Outcome(unit: unit, passed: false, report: "cannot write \(path): \(error)", seconds: 0)
        }
    }
    let result = run(options.swiftc, arguments, in: options.root)
    let seconds = Date().timeIntervalSince(started)
    let diagnostics = parseDiagnostics(result.output)

    if unit.kind == .failureCase {
        return checkFailureCase(
            unit, status: result.status, output: result.output, diagnostics: diagnostics, seconds: seconds)
    }
    let problems = diagnostics.filter { diagnostic in
        diagnostic.severity == "error"
            || diagnostic.severity == "warning"
                && allowedWarnings.firstMatch(
                    in: diagnostic.message, range: NSRange(diagnostic.message.startIndex..., in: diagnostic.message))
                    == nil
    }
    if result.status == 0 && problems.isEmpty {
        return Outcome(unit: unit, passed: true, report: "", seconds: seconds)
    }
    var report = problems.map(\.text).joined(separator: "\n")
    if report.isEmpty { report = result.output }
    report += "\n(generated file: \(path))"
    return Outcome(unit: unit, passed: false, report: report, seconds: seconds)
}

/// A compile-failure case passes when it does not compile, every `// expected-error: TEXT`
/// comment has an error containing TEXT on its line (or whose note is on its line, as the
/// ownership checker reports the declaration and notes the use), and no other error is reported.
func checkFailureCase(_ unit: Unit, status: Int32, output: String, diagnostics: [Diagnostic], seconds: Double)
    -> Outcome
{
    let source = (try? String(contentsOfFile: unit.document, encoding: .utf8)) ?? ""
    var expectations: [(line: Int, text: String)] = []
    for (index, line) in source.components(separatedBy: "\n").enumerated() {
        if let marker = line.range(of: "// expected-error: ") {
            expectations.append((index + 1, line[marker.upperBound...].trimmingCharacters(in: .whitespaces)))
        }
    }
    let errors = diagnostics.filter { $0.severity == "error" && $0.file.hasSuffix(unit.document) }
    // A case that crashes a known compiler says so (`// known-compiler-crash: WHY`): the crash
    // is accepted while no error is reported; once the compiler diagnoses the code instead, the
    // expected errors must match as usual.
    let crashed = status != 0 && (output.contains("Program crashed") || output.contains("Stack dump:"))
    if crashed, errors.isEmpty {
        if source.contains("// known-compiler-crash:") {
            return Outcome(
                unit: unit, passed: true, report: "", seconds: seconds, note: "crashes the compiler, as known")
        }
        return Outcome(
            unit: unit, passed: false, report: "\(unit.document): the compiler crashed:\n\(output.prefix(3000))",
            seconds: seconds)
    }
    var problems: [String] = []
    if expectations.isEmpty { problems.append("\(unit.document): no `// expected-error: TEXT` comment") }
    if status == 0 { problems.append("\(unit.document): compiled, but must not") }
    func isAt(_ error: Diagnostic, _ line: Int) -> Bool { error.line == line || error.noteLines.contains(line) }
    for expectation in expectations
    where !errors.contains(where: { isAt($0, expectation.line) && $0.message.contains(expectation.text) }) {
        let found = errors.filter { isAt($0, expectation.line) }.map(\.message)
        problems.append(
            "\(unit.document):\(expectation.line): expected an error containing “\(expectation.text)”; found \(found.isEmpty ? "none" : found.map { "“\($0)”" }.joined(separator: ", "))"
        )
    }
    for error in errors where !expectations.contains(where: { isAt(error, $0.line) }) {
        problems.append("unexpected error (the case may fail for the wrong reason):\n\(error.text)")
    }
    if status != 0, errors.isEmpty { problems.append(output) }
    return Outcome(unit: unit, passed: problems.isEmpty, report: problems.joined(separator: "\n"), seconds: seconds)
}

/// Compiles every unit, `jobs` at a time, keeping the outcomes in order.
final class ParallelCompiler: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var outcomes: [Int: Outcome] = [:]
    private let units: [Unit]
    private let options: Options

    init(units: [Unit], options: Options) {
        self.units = units
        self.options = options
    }

    func run(jobs: Int) -> [Outcome] {
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, units.count)) {
            group.enter()
            Thread.detachNewThread {
                while let index = self.take() {
                    let outcome = compile(self.units[index], options: self.options)
                    self.lock.lock()
                    self.outcomes[index] = outcome
                    self.lock.unlock()
                }
                group.leave()
            }
        }
        group.wait()
        return units.indices.compactMap { outcomes[$0] }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < units.count else { return nil }
        next += 1
        return next - 1
    }
}

// MARK: - Build flags

/// The C module flags and macro plugins SwiftPM passed when it built Slate, SlateMacros,
/// SlatePostgres (whose SwiftNIO C modules the PostgreSQL snippets load), SlateTesting (whose
/// swift-syntax C module the testing snippets load) and SlatePostgresTesting into
/// `directory`: the snippets need the same to load the modules (the C modules' maps and header
/// paths change with the package's traits and layout).
func buildFlags(description path: String, directory: String) -> (flags: [String], plugins: [String])? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    var flags: [String] = []
    var plugins: [String] = []
    var found = false
    for line in text.components(separatedBy: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("args: ["),
            ["Slate", "SlateMacros", "SlatePostgres", "SlateTesting", "SlatePostgresTesting"].contains(where: {
                module in
                trimmed.contains("\"-module-name\",\"\(module)\"")
                    && trimmed.contains("\"\(directory)/\(module).swiftmodule\"")
            }),
            let data = trimmed.dropFirst("args: ".count).data(using: .utf8),
            let arguments = try? JSONSerialization.jsonObject(with: data) as? [String]
        else { continue }
        found = true
        var index = 0
        while index + 1 < arguments.count {
            if arguments[index] == "-Xcc" {
                let flag = ["-Xcc", arguments[index + 1]]
                // -I takes its value as the next -Xcc argument.
                if arguments[index + 1] == "-I", index + 3 < arguments.count {
                    let pair = flag + ["-Xcc", arguments[index + 3]]
                    if !contains(flags, pair) { flags += pair }
                    index += 4
                    continue
                }
                if !contains(flags, flag) { flags += flag }
            } else if arguments[index] == "-load-plugin-executable" {
                // Passed to the frontend as -Xfrontend -load-plugin-executable -Xfrontend VALUE.
                let value =
                    arguments[index + 1] == "-Xfrontend" && index + 2 < arguments.count
                    ? arguments[index + 2] : arguments[index + 1]
                if !plugins.contains(value) { plugins.append(value) }
            }
            index += 1
        }
    }
    return found ? (flags, plugins) : nil
}

/// Whether `list` holds `sequence` at an even position (as a flag and its value).
func contains(_ list: [String], _ sequence: [String]) -> Bool {
    stride(from: 0, to: list.count - sequence.count + 1, by: 2).contains {
        Array(list[$0..<$0 + sequence.count]) == sequence
    }
}

// MARK: - Main

@main
struct CheckSnippets {
    static func main() {
        let started = Date()
        var options = Options.parse(Array(CommandLine.arguments.dropFirst()))
        guard FileManager.default.changeCurrentDirectoryPath(options.root) else { fail("no directory \(options.root)") }
        options.root = FileManager.default.currentDirectoryPath
        try? FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        if let description = options.buildDescription {
            guard let directory = options.moduleDirectories.first,
                let build = buildFlags(description: description, directory: directory)
            else {
                fail(
                    "\(description) has no command that built Slate into \(options.moduleDirectories.first ?? "(no -I)")"
                )
            }
            options.flags = build.flags + options.flags
            options.plugins = build.plugins + options.plugins
        }

        var units: [Unit] = []
        var problems: [String] = []
        var summary: [String] = []
        var skipped: [String] = []
        var blockCount = 0
        var usedContexts: Set<String> = []

        for document in options.documents {
            guard let text = try? String(contentsOfFile: document, encoding: .utf8) else {
                problems.append("\(document): cannot read")
                continue
            }
            let (blocks, inlineCode) = parseMarkdown(text, document: document)
            var swiftBlocks: [CodeBlock] = []
            var otherLanguages: [String: Int] = [:]
            for block in blocks {
                if block.language.isEmpty {
                    problems.append(
                        "\(block.location): a fenced block without a language: mark Swift as ```swift, anything else as ```text, ```sh, ```sql…"
                    )
                    continue
                }
                guard block.language == "swift" else {
                    otherLanguages[block.language, default: 0] += 1
                    if let reason = block.skipReason {
                        problems.append(
                            "\(block.location): `snippet-check: skip` (\(reason)) on a ```\(block.language) block: only Swift blocks are checked"
                        )
                    }
                    continue
                }
                if let directive = block.unknownDirective {
                    problems.append(
                        "\(block.location): unknown `snippet-check: \(directive)` (known: skip REASON, traits NAME)")
                }
                for (index, line) in block.lines.enumerated() {
                    for message in lint(line) {
                        problems.append(
                            "\(document):\(block.documentLine(index)): \(message)\n    \(line.trimmingCharacters(in: .whitespaces))"
                        )
                    }
                }
                if let reason = block.skipReason {
                    if reason.isEmpty { problems.append("\(block.location): `snippet-check: skip` needs a reason") }
                    skipped.append("\(block.location): \(reason)")
                    continue
                }
                swiftBlocks.append(block)
            }
            // Inline code of the user-facing documents too (the benchmarks' and parity notes quote
            // GRDB's API and the history of Slate's).
            let isUserFacing = document == "README.md" || document.contains(".docc/")
            for (line, code) in inlineCode where isUserFacing {
                for message in lint(code) { problems.append("\(document):\(line): \(message)\n    `\(code)`") }
            }
            blockCount += swiftBlocks.count
            let contextPath = "\(options.contexts)/\(contextName(for: document))"
            var context: (path: String, text: String)?
            if let contextText = try? String(contentsOfFile: contextPath, encoding: .utf8) {
                context = (contextPath, contextText)
                usedContexts.insert(contextPath)
            }
            let documentUnits = makeUnits(document: document, blocks: swiftBlocks, context: context)
            units += documentUnits
            let skippedHere = blocks.filter { $0.language == "swift" && $0.skipReason != nil }.count
            let others = otherLanguages.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
                separator: ", ")
            if !blocks.isEmpty {
                summary.append(
                    "\(document): \(swiftBlocks.count) Swift block(s) in \(documentUnits.count) unit(s)"
                        + (skippedHere > 0 ? ", \(skippedHere) skipped" : "")
                        + (others.isEmpty ? "" : "; not Swift: \(others)"))
            }
        }
        // A context without its document is a leftover from a renamed or removed document.
        if options.checkContexts, let enumerator = FileManager.default.enumerator(atPath: options.contexts) {
            for case let file as String in enumerator where file.hasSuffix(".swift") {
                let path = "\(options.contexts)/\(file)"
                if !usedContexts.contains(path) {
                    problems.append("\(path): a context file whose document has no Swift block to check")
                }
            }
        }
        for failureCase in options.failureCases {
            units.append(Unit(kind: .failureCase, name: failureCase, document: failureCase, blocks: []))
        }

        // The biggest units first, so that the last one to finish is short.
        let order = units.indices.sorted {
            units[$0].source.count + units[$0].blocks.count > units[$1].source.count + units[$1].blocks.count
        }
        let outcomes = ParallelCompiler(units: order.map { units[$0] }, options: options).run(jobs: options.jobs)

        for outcome in outcomes.sorted(by: { $0.unit.name < $1.unit.name }) {
            let label = outcome.unit.kind == .failureCase ? "must not compile" : "\(outcome.unit.blocks.count) block(s)"
            if options.verbose || !outcome.passed || !outcome.note.isEmpty {
                print(
                    String(
                        format: "%@ %@ (%@, %.1f s)", outcome.passed ? "ok  " : "FAIL", outcome.unit.name, label,
                        outcome.seconds)
                        + (outcome.note.isEmpty ? "" : ": \(outcome.note)"))
            }
            if !outcome.passed { problems.append("\(outcome.unit.name):\n\(outcome.report)") }
            if outcome.note.hasPrefix("not compiled") {
                skipped += outcome.unit.blocks.map { "\($0.location): \(outcome.note)" }
            }
        }

        print("== Documentation snippets")
        for line in summary { print("  \(line)") }
        if !skipped.isEmpty {
            print("== Swift blocks not compiled")
            for line in skipped { print("  \(line)") }
        }
        let failureCount = options.failureCases.count
        let snippetUnits = units.count - failureCount
        print(
            String(
                format:
                    "== %d Swift block(s) in %d compiler run(s), %d compile-failure case(s), %d block(s) not compiled, %.1f s with %d job(s)",
                blockCount, snippetUnits, failureCount, skipped.count, Date().timeIntervalSince(started), options.jobs))
        if !problems.isEmpty {
            print("\n== \(problems.count) problem(s)")
            for problem in problems { print(problem + "\n") }
            exit(1)
        }
        print("every snippet compiles; every compile-failure case fails as expected")
    }
}
