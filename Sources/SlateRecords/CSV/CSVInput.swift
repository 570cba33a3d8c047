import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A CSV file read as UTF-8, chunk by chunk: the file's bytes for UTF-8, transcoded ones for
/// UTF-16 and Latin-1. Memory is one scratch chunk for transcoding, whatever the file size.
///
/// Transcoding never fails: a UTF-16 unit that cannot be decoded (an unpaired surrogate, an odd
/// final byte) becomes the byte `0xFF`, which is never valid UTF-8, so the reader's validation
/// reports it with its line and column like any invalid byte.
final class CSVInput {
    let path: String
    /// The file's size in bytes, when the system reports one.
    let fileSize: Int?
    /// The encoding in effect once the byte order mark, if any, was seen.
    private(set) var encoding: CSVEncoding
    /// The file's bytes consumed so far, byte order mark included.
    private(set) var bytesRead = 0

    private var descriptor: Int32
    private var started = false
    private var finished = false
    /// Raw bytes for transcoding, allocated on first need.
    private var scratch: UnsafeMutablePointer<UInt8>?
    private var scratchCapacity = 0
    /// Bytes read but not yet transcoded: an odd UTF-16 byte, or a high surrogate's two bytes
    /// waiting for the low one.
    private var pending: [UInt8] = []

    /// Opens the file.
    init(url: URL, encoding: CSVEncoding) throws {
        path = url.path
        self.encoding = encoding
        descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CSVError(.fileError("cannot open the file: \(String(cString: strerror(errno)))"), file: url.path)
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            fileSize = Int(status.st_size)
        } else {
            fileSize = nil
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        scratch?.deallocate()
    }

    /// The least room ``read(into:capacity:)`` needs.
    static let minimumCapacity = 16

    /// Fills `buffer` with up to `capacity` bytes of UTF-8 (`capacity` is at least
    /// ``minimumCapacity``). Returns the number of bytes written; 0 only at the end of the file.
    func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws -> Int {
        precondition(capacity >= Self.minimumCapacity)
        if !started { try start() }
        while true {
            let produced: Int
            switch encoding {
            case .automatic, .utf8:
                produced = try rawRead(into: buffer, count: capacity)
            case .latin1:
                produced = try readLatin1(into: buffer, capacity: capacity)
            case .utf16LittleEndian:
                produced = try readUTF16(into: buffer, capacity: capacity, bigEndian: false)
            case .utf16BigEndian:
                produced = try readUTF16(into: buffer, capacity: capacity, bigEndian: true)
            }
            // Transcoding can consume bytes without producing any (a lone high surrogate at the
            // end of a chunk); read again unless the file is over.
            if produced > 0 || finished { return produced }
        }
    }

    // MARK: Byte order mark

    private func start() throws {
        started = true
        var head = [UInt8](repeating: 0, count: 4)
        let count = try head.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var total = 0
            while total < 4 {
                let got = try rawRead(into: base + total, count: 4 - total)
                if got == 0 { break }
                total += got
            }
            return total
        }
        head.removeLast(4 - count)
        var skip = 0
        switch encoding {
        case .automatic:
            if head.starts(with: [0xEF, 0xBB, 0xBF]) {
                encoding = .utf8
                skip = 3
            } else if head.starts(with: [0xFF, 0xFE, 0, 0]) || head.starts(with: [0, 0, 0xFE, 0xFF]) {
                throw CSVError(
                    .invalidEncoding("the file is UTF-32, which the importer does not read; convert it to UTF-8"),
                    file: path)
            } else if head.starts(with: [0xFF, 0xFE]) {
                encoding = .utf16LittleEndian
                skip = 2
            } else if head.starts(with: [0xFE, 0xFF]) {
                encoding = .utf16BigEndian
                skip = 2
            } else if head.count >= 2, (head[0] == 0) != (head[1] == 0), (head[0] | head[1]) < 0x80 {
                throw CSVError(
                    .invalidEncoding(
                        "the file looks like UTF-16 without a byte order mark; import it with encoding "
                            + (head[0] == 0 ? ".utf16BigEndian" : ".utf16LittleEndian")),
                    file: path)
            } else {
                encoding = .utf8
            }
        case .utf8:
            if head.starts(with: [0xEF, 0xBB, 0xBF]) { skip = 3 }
        case .utf16LittleEndian:
            if head.starts(with: [0xFF, 0xFE]) { skip = 2 }
        case .utf16BigEndian:
            if head.starts(with: [0xFE, 0xFF]) { skip = 2 }
        case .latin1:
            break
        }
        // The bytes after the byte order mark are read again by the decoder.
        pending = Array(head.dropFirst(skip))
    }

    // MARK: Reading

    /// Reads up to `count` raw bytes: first the ones kept back, then the file's.
    private func rawRead(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if !pending.isEmpty, started, encoding == .utf8 || encoding == .latin1 {
            let taken = min(count, pending.count)
            for index in 0..<taken { buffer[index] = pending[index] }
            pending.removeFirst(taken)
            return taken < count ? taken + (try rawRead(into: buffer + taken, count: count - taken)) : taken
        }
        if finished { return 0 }
        while true {
            let got = systemRead(descriptor, buffer, count)
            if got > 0 {
                bytesRead += got
                return got
            }
            if got == 0 {
                finished = true
                return 0
            }
            if errno == EINTR { continue }
            throw CSVError(.fileError("cannot read the file: \(String(cString: strerror(errno)))"), file: path)
        }
    }

    private func ensureScratch(_ capacity: Int) {
        guard scratchCapacity < capacity else { return }
        scratch?.deallocate()
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        scratchCapacity = capacity
    }

    /// Latin-1: bytes below 0x80 are copied, the others become two UTF-8 bytes.
    private func readLatin1(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws -> Int {
        let rawCount = capacity / 2
        ensureScratch(rawCount)
        guard let scratch else { return 0 }
        let got = try rawRead(into: scratch, count: rawCount)
        var out = 0
        for index in 0..<got {
            let byte = scratch[index]
            if byte < 0x80 {
                buffer[out] = byte
                out += 1
            } else {
                buffer[out] = 0xC0 | (byte >> 6)
                buffer[out + 1] = 0x80 | (byte & 0x3F)
                out += 2
            }
        }
        return out
    }

    /// UTF-16: each unit of the BMP becomes one to three UTF-8 bytes, each surrogate pair four.
    private func readUTF16(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int, bigEndian: Bool) throws -> Int {
        // Two input bytes give at most three output bytes, and up to three bytes are carried over
        // from the previous chunk: with this many new bytes, the output fits in `capacity`.
        let rawCount = ((capacity / 3) * 2 - 4) & ~1
        ensureScratch(rawCount + 4)
        guard let scratch else { return 0 }
        let carried = pending.count
        for index in 0..<carried { scratch[index] = pending[index] }
        pending.removeAll(keepingCapacity: true)
        let got = try rawRead(into: scratch + carried, count: rawCount)
        let available = carried + got
        var index = 0
        var out = 0
        func unit(at position: Int) -> UInt16 {
            bigEndian
                ? UInt16(scratch[position]) << 8 | UInt16(scratch[position + 1])
                : UInt16(scratch[position + 1]) << 8 | UInt16(scratch[position])
        }
        while index + 1 < available {
            let first = unit(at: index)
            if first < 0x80 {
                buffer[out] = UInt8(truncatingIfNeeded: first)
                out += 1
                index += 2
            } else if first < 0x800 {
                buffer[out] = 0xC0 | UInt8(truncatingIfNeeded: first >> 6)
                buffer[out + 1] = 0x80 | UInt8(truncatingIfNeeded: first & 0x3F)
                out += 2
                index += 2
            } else if first & 0xFC00 == 0xD800 {
                // A high surrogate needs the next unit.
                guard index + 3 < available else {
                    if finished {
                        buffer[out] = 0xFF  // unpaired at the end of the file
                        out += 1
                        index += 2
                        continue
                    }
                    break  // keep it for the next chunk
                }
                let second = unit(at: index + 2)
                guard second & 0xFC00 == 0xDC00 else {
                    buffer[out] = 0xFF  // unpaired high surrogate
                    out += 1
                    index += 2
                    continue
                }
                let scalar = 0x10000 + ((UInt32(first) & 0x3FF) << 10) + (UInt32(second) & 0x3FF)
                buffer[out] = 0xF0 | UInt8(truncatingIfNeeded: scalar >> 18)
                buffer[out + 1] = 0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F)
                buffer[out + 2] = 0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F)
                buffer[out + 3] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
                out += 4
                index += 4
            } else if first & 0xFC00 == 0xDC00 {
                buffer[out] = 0xFF  // unpaired low surrogate
                out += 1
                index += 2
            } else {
                buffer[out] = 0xE0 | UInt8(truncatingIfNeeded: first >> 12)
                buffer[out + 1] = 0x80 | UInt8(truncatingIfNeeded: (first >> 6) & 0x3F)
                buffer[out + 2] = 0x80 | UInt8(truncatingIfNeeded: first & 0x3F)
                out += 3
                index += 2
            }
        }
        if index < available {
            if finished && available - index == 1 {
                buffer[out] = 0xFF  // an odd final byte
                out += 1
            } else {
                pending.append(contentsOf: UnsafeBufferPointer(start: scratch + index, count: available - index))
            }
        }
        return out
    }
}

/// `read(2)`, named apart from `CSVInput.read(into:capacity:)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
        return Musl.read(descriptor, buffer, count)
    #else
        return Darwin.read(descriptor, buffer, count)
    #endif
}
