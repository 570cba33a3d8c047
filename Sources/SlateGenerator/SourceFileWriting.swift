import Foundation
import SlateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension CodeGenerator {
    /// Writes generated `source` to `url`, the one writer of `slate generate` and the plugins'
    /// tool: unless the file already holds it (so unchanged output does not trigger a rebuild), a
    /// regular file is replaced atomically, and anything else — `/dev/null`, a FIFO,
    /// `/dev/stdout` — is written in place, never replaced (`OutputFile`). Missing directories
    /// are created.
    ///
    /// - Throws: ``GeneratorError/invalidOption(_:)`` naming the path and the system's reason.
    public static func write(_ source: String, to url: URL) throws {
        let data = Data(source.utf8)
        var status = stat()
        let isRegular = stat(url.path, &status) != 0 || (status.st_mode & S_IFMT) == S_IFREG
        if isRegular, let existing = try? Data(contentsOf: url), existing == data { return }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var file = try OutputFile(url: url)
            do {
                try file.write(data)
                try file.commit()
            } catch {
                file.discard()
                throw error
            }
        } catch {
            throw GeneratorError.invalidOption("cannot write \(url.path): \(error)")
        }
    }
}
