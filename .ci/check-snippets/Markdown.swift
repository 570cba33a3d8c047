import Foundation

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
