import Foundation

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
