import Foundation
import SlateGenerator

// The plugins' tool: `slate generate` alone, for SlateBuildPlugin and SlateGenerateCommand. It
// reads the arguments the plugins pass (`Plugins/PluginsShared/SlateInputs.swift`) and writes
// what `slate generate` writes, through the same `CodeGenerator` functions, without
// swift-argument-parser and the runtime's other layers: the host build a plugin needs compiles
// less (issue 36). Users run `slate generate` (product `slate`) instead.
//
//   SlateGenerateTool generate INPUT… [--config FILE] [--name NAME] [--module-bundle-accessor]
//                     [--resource-subdirectory DIR] [--output FILE]

/// The options of one run.
struct GenerateOptions {
    var inputs: [String] = []
    var config: String?
    var name: String?
    var moduleBundleAccessor = false
    var resourceSubdirectory: String?
    var output: String?

    /// Parses `arguments` (without the program name).
    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        if remaining.first == "generate" { remaining = remaining.dropFirst() }
        func value(_ option: String) throws -> String {
            guard let value = remaining.popFirst() else {
                throw GeneratorError.invalidOption("\(option) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--config": config = try value(argument)
            case "--name": name = try value(argument)
            case "--module-bundle-accessor": moduleBundleAccessor = true
            case "--resource-subdirectory": resourceSubdirectory = try value(argument)
            case "--output", "-o": output = try value(argument)
            case let option where option.hasPrefix("-") && option != "-":
                throw GeneratorError.invalidOption("unknown option \(option) (the plugins' tool; use `slate generate`)")
            default: inputs.append(argument)
            }
        }
        if inputs.isEmpty {
            throw GeneratorError.invalidOption("give a SQLite database file or one or more .sql files")
        }
    }
}

do {
    let options = try GenerateOptions(Array(CommandLine.arguments.dropFirst()))
    let configuration =
        try options.config.map { try GeneratorConfiguration.load(from: URL(fileURLWithPath: $0)) }
        ?? GeneratorConfiguration()
    let source = try CodeGenerator.generate(
        inputs: options.inputs.map { URL(fileURLWithPath: $0) }, configuration: configuration,
        databaseTypeName: options.name, generatesModuleBundleAccessor: options.moduleBundleAccessor,
        resourceSubdirectory: options.resourceSubdirectory,
        warn: { FileHandle.standardError.write(Data("\($0)\n".utf8)) })
    if let output = options.output, output != "-" {
        try CodeGenerator.write(source, to: URL(fileURLWithPath: output))
    } else {
        FileHandle.standardOutput.write(Data(source.utf8))
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
