import CSQLite
import Foundation

// The streaming forms of the session extension (`*_strm`): changesets of any size, read and written
// in pieces through functions SQLite calls, in bounded memory.

/// Where a streamed changeset or patchset comes from: a function that fills a buffer with the next
/// bytes and returns how many it wrote, 0 at the end.
///
/// ```swift
/// let input = ChangesetInput.fileHandle(try FileHandle(forReadingFrom: url))
/// try db.applyChangeset(from: input) { _ in .abort }
/// ```
public struct ChangesetInput {
    let read: (UnsafeMutableRawBufferPointer) throws -> Int

    /// An input that calls `read` for the next bytes: it writes at most `buffer.count` bytes at
    /// the start of `buffer` and returns their number, 0 once there are no more. An error it
    /// throws stops the operation that reads, which rethrows it.
    public init(_ read: @escaping (_ buffer: UnsafeMutableRawBufferPointer) throws -> Int) {
        self.read = read
    }

    /// The bytes of `data`, handed out in pieces as SQLite asks for them.
    public static func data(_ data: Data) -> ChangesetInput {
        var offset = data.startIndex
        return ChangesetInput { buffer in
            let count = min(buffer.count, data.endIndex - offset)
            guard count > 0 else { return 0 }
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            return count
        }
    }

    /// The bytes `handle` reads, up to its end.
    public static func fileHandle(_ handle: FileHandle) -> ChangesetInput {
        ChangesetInput { buffer in
            guard let chunk = try handle.read(upToCount: buffer.count), !chunk.isEmpty else { return 0 }
            chunk.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: chunk.count)
            return chunk.count
        }
    }
}

/// Where a streamed changeset or patchset goes: a function called with each piece of it, in order.
public struct ChangesetOutput {
    let write: (UnsafeRawBufferPointer) throws -> Void

    /// An output that calls `write` with each piece of the bytes, in order. An error it throws
    /// stops the operation that writes, which rethrows it.
    public init(_ write: @escaping (_ bytes: UnsafeRawBufferPointer) throws -> Void) {
        self.write = write
    }

    /// An output that writes to `handle`.
    public static func fileHandle(_ handle: FileHandle) -> ChangesetOutput {
        ChangesetOutput { bytes in try handle.write(contentsOf: Data(bytes)) }
    }
}

/// What a C callback of a streaming call needs: the Swift input or output, and the error it threw,
/// to rethrow once SQLite returns.
final class ChangesetStreamContext {
    let input: ChangesetInput?
    let output: ChangesetOutput?
    /// The first error the input or output threw.
    private(set) var thrown: (any Error)?

    init(input: ChangesetInput? = nil, output: ChangesetOutput? = nil) {
        self.input = input
        self.output = output
    }

    /// The context pointer for the C callbacks. The caller keeps `self` alive for as long as SQLite
    /// may call back: the cursor or the function that makes the call holds it.
    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The error to throw for a failing `code`: what the input or output threw, if that is why.
    func error(_ code: Int32, _ what: String) -> any Error {
        thrown ?? SessionExtension.error(code, what)
    }

    /// Throws what the input or output threw, or an error for `code` when it failed.
    func check(_ code: Int32, _ what: String) throws {
        if let thrown { throw thrown }
        try SessionExtension.check(code, what)
    }

    /// `int (*xInput)(void *pIn, void *pData, int *pnData)`.
    static let readCallback:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?)
            -> Int32 = { context, data, size in
                guard let context, let size else { return SQLITE_MISUSE }
                let stream = Unmanaged<ChangesetStreamContext>.fromOpaque(context).takeUnretainedValue()
                guard let input = stream.input, stream.thrown == nil else { return SQLITE_IOERR }
                let capacity = Int(max(0, size.pointee))
                guard let data, capacity > 0 else {
                    size.pointee = 0
                    return SQLITE_OK
                }
                do {
                    let count = try input.read(UnsafeMutableRawBufferPointer(start: data, count: capacity))
                    guard count >= 0, count <= capacity else {
                        throw DatabaseError(
                            resultCode: .misuse,
                            message: "a ChangesetInput returned \(count) for a buffer of \(capacity) bytes")
                    }
                    size.pointee = Int32(count)
                    return SQLITE_OK
                } catch {
                    stream.thrown = error
                    size.pointee = 0
                    return SQLITE_IOERR
                }
            }

    /// `int (*xOutput)(void *pOut, const void *pData, int nData)`.
    static let writeCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int32) -> Int32 = {
        context, data, size in
        guard let context else { return SQLITE_MISUSE }
        let stream = Unmanaged<ChangesetStreamContext>.fromOpaque(context).takeUnretainedValue()
        guard let output = stream.output, stream.thrown == nil else { return SQLITE_IOERR }
        guard size > 0, let data else { return SQLITE_OK }
        do {
            try output.write(UnsafeRawBufferPointer(start: data, count: Int(size)))
            return SQLITE_OK
        } catch {
            stream.thrown = error
            return SQLITE_IOERR
        }
    }
}

/// Streaming operations on changesets that need no connection.
public enum ChangesetStream {
    /// Writes the inverse of the changeset `input` produces to `output` (see
    /// ``Changeset/inverted()``), in bounded memory.
    ///
    /// - Throws: ``ResultCode/corrupt`` when the input is malformed or truncated (or a patchset),
    ///   or what the input or output throws.
    public static func invert(from input: ChangesetInput, to output: ChangesetOutput) throws {
        try SessionExtension.requireAvailable()
        let stream = ChangesetStreamContext(input: input.validated(), output: output)
        let code = withExtendedLifetime(stream) {
            sqlite3changeset_invert_strm(
                ChangesetStreamContext.readCallback, stream.pointer, ChangesetStreamContext.writeCallback,
                stream.pointer)
        }
        try stream.check(code, "inverting a changeset stream")
    }
}
