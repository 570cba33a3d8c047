// Compiles (to SIL) every ```swift block of the documentation against the freshly built Slate modules,
// and checks that the expected compile failures (Tests/CompileFailures) still fail. Run it through
// .ci/check-snippets.sh, which builds these files and finds the modules; see that script and
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
