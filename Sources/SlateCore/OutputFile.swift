import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file being written: the one way Slate's exports and `slate generate` write their output.
///
/// A regular file (or a path where nothing exists yet) is written to a temporary file beside it,
/// then renamed over it on ``commit()``: a failed write leaves no partial file and an existing file
/// unchanged. Anything else — a character device such as `/dev/null` or `/dev/stdout`, a FIFO, a
/// socket — is opened and written in place: a rename over it would replace the device (issue 36:
/// `slate generate --output /dev/null` run as root replaced the system's `/dev/null` with a
/// regular file). A symbolic link is followed, so a link to `/dev/stdout` is written in place too.
package struct OutputFile {
    /// A failure to create, write or move the file into place, with the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The destination.
    package let url: URL
    /// The temporary file renamed over ``url`` on commit; `nil` when ``url`` is written in place.
    package let temporary: URL?
    private var descriptor: Int32

    /// Opens `url` for writing, as the type's summary says.
    package init(url: URL) throws(Failure) {
        self.url = url
        var status = stat()
        let exists = stat(url.path, &status) == 0
        if exists, (status.st_mode & S_IFMT) != S_IFREG {
            // O_TRUNC is ignored by devices and FIFOs; it never applies to a regular file here.
            temporary = nil
            descriptor = open(url.path, O_WRONLY)
            guard descriptor >= 0 else { throw Self.failure("cannot open the file for writing") }
            return
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        self.temporary = temporary
        descriptor = open(
            temporary.path, O_WRONLY | O_CREAT | O_TRUNC, exists ? mode_t(status.st_mode & 0o7777) : 0o644)
        guard descriptor >= 0 else { throw Self.failure("cannot create the file") }
    }

    /// Whether the file is written in place (not a regular file).
    package var isInPlace: Bool { temporary == nil }

    /// Writes all of `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot write the file")
            }
            offset += written
        }
    }

    /// Writes all of `data`.
    package func write(_ data: Data) throws(Failure) {
        var failure: Failure?
        data.withUnsafeBytes { bytes in
            do throws(Failure) { try write(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Closes the file and, for a regular file, renames it over the destination.
    package mutating func commit() throws(Failure) {
        let code = close(descriptor)
        descriptor = -1
        guard code == 0 else {
            let failure = Self.failure("cannot write the file")
            if let temporary { unlink(temporary.path) }
            throw failure
        }
        if let temporary, rename(temporary.path, url.path) != 0 {
            let failure = Self.failure("cannot move the file into place")
            unlink(temporary.path)
            throw failure
        }
    }

    /// Closes the file without committing it: a temporary file is deleted, the destination left
    /// as it was (a device or FIFO keeps what was written to it).
    package mutating func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let temporary { unlink(temporary.path) }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// `write(2)`, under a name that does not clash with ``OutputFile/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
