import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Says which case was running when the process dies of a trap or a signal: a Swift runtime trap
/// (an overflow, a force unwrap, an out-of-bounds index) kills the process before any report, so
/// a signal handler writes the case's replay command to standard error, then lets the signal
/// take its default course.
public enum CrashContext {
    private static let capacity = 1024
    // Written by the one thread that runs cases, read by the signal handler (async-signal-safe:
    // a preallocated buffer and write(2), nothing else).
    nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var length = 0

    /// Installs the handlers for the signals a trap or a memory error raises.
    public static func install() {
        for signalNumber in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            signal(signalNumber) { number in
                _ = write(2, CrashContext.buffer, CrashContext.length)
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Sets what the handler writes if the process dies now.
    public static func set(_ text: String) {
        let bytes = Array(("\nslate-fuzz: the process died during " + text + "\n").utf8.prefix(capacity))
        length = 0
        for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        length = bytes.count
    }

    /// Clears the context.
    public static func clear() { length = 0 }
}
