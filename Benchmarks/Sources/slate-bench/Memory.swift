import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Peak memory, for the scenarios that report it (Linux only; `nil` elsewhere).
///
/// - In-process work: the resident set at its peak. `reset()` sets the kernel's high-water mark
///   (`VmHWM` in `/proc/self/status`) back to the current resident set by writing `5` to
///   `/proc/self/clear_refs`, and returns that resident set (`VmRSS`); after the work,
///   `highWaterMark()` minus a resident set measured before is how much the work used at its
///   peak.
/// - A child process: its own peak resident set (`ru_maxrss` from `wait4`).
enum Memory {
    /// Resets the high-water mark to the current resident set, and returns that, in bytes.
    static func reset() -> Int? {
        #if os(Linux)
            guard let file = fopen("/proc/self/clear_refs", "w") else { return nil }
            fputs("5", file)
            fclose(file)
            return statusValue("VmRSS:")
        #else
            return nil
        #endif
    }

    /// The resident set's high-water mark, in bytes.
    static func highWaterMark() -> Int? {
        #if os(Linux)
            return statusValue("VmHWM:")
        #else
            return nil
        #endif
    }

    /// A `kB` line of `/proc/self/status`, in bytes.
    private static func statusValue(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            let number = line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                Int($0)
            }
            return number.map { $0 * 1024 }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, waits for it, and returns its exit status and peak
    /// resident set in bytes. Standard output and error are the harness's.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, peakBytes: Int) {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, nil, nil, argv, environ)
        guard spawned == 0 else {
            throw HarnessError("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw HarnessError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let exited = status & 0x7F == 0
        #if os(Linux)
            let peak = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
            let peak = Int(usage.ru_maxrss)  // bytes on macOS
        #endif
        return (exited ? (status >> 8) & 0xFF : -1, peak)
    }
}
