// libFuzzer's entry point for Slate's fuzz domains: coverage-guided runs of the same case
// generators `slate-fuzz` drives from a seed, here driven by libFuzzer's bytes (`Entropy(bytes:)`).
// Built and run by `.ci/libfuzzer.sh` (swiftc -sanitize=fuzzer,address); not part of the package.
//
//   SLATE_FUZZ_DOMAIN=sql|values|decode|schemas|changesets   the domain (default sql)
//   SLATE_FUZZ_DATA=DIR                           where chinook.sqlite and northwind.sqlite are
//
// A finding (a lie, a wrong error) aborts, so that libFuzzer keeps the input as a crash; a trap or
// a memory error is caught by libFuzzer and AddressSanitizer directly.
import Foundation
import SlateFuzzing

#if canImport(Glibc)
    import Glibc
#endif

nonisolated(unsafe) private var runner: FuzzRunner?
nonisolated(unsafe) private var domain = FuzzDomain.sql

@_cdecl("LLVMFuzzerTestOneInput")
public func slateFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let current: FuzzRunner
    if let runner {
        current = runner
    } else {
        let environment = ProcessInfo.processInfo.environment
        domain = environment["SLATE_FUZZ_DOMAIN"].flatMap(FuzzDomain.init(rawValue:)) ?? .sql
        var options = FuzzRunner.Options()
        options.domains = [domain]
        if let data = environment["SLATE_FUZZ_DATA"] { options.dataDirectory = URL(fileURLWithPath: data) }
        current = FuzzRunner(options: options)
        runner = current
    }
    do {
        let findings = try current.runBytes(bytes, domain: domain)
        if let first = findings.first {
            FileHandle.standardError.write(Data("slate-libfuzzer: \(first)\n".utf8))
            abort()
        }
    } catch {
        FileHandle.standardError.write(Data("slate-libfuzzer: the harness failed: \(error)\n".utf8))
        abort()
    }
    return 0
}
