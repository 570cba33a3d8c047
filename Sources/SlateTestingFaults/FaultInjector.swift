import Foundation
import SlateCore
internal import SlateTestingFaultVFS

/// A fault-injecting SQLite VFS for tests: every I/O call of the connections opened through it
/// passes to the default VFS, except the one its schedule picks, which fails.
///
/// Each injector registers a VFS of its own under a unique name, over the default VFS and never as
/// the default, so tests running in parallel never share a schedule. Open connections through
/// ``location(ofFile:)``, which names the VFS in a `file:` URI:
///
/// ```swift
/// let faults = try FaultInjector()
/// let db = try Database(location: faults.location(ofFile: path))
/// faults.schedule(FaultInjector.Fault(.write, occurrence: 3, kind: .ioError))
/// try db.execute(sql: "INSERT INTO t VALUES (1)")   // the 3rd write fails: SQLITE_IOERR_WRITE
/// ```
///
/// Calls are counted per ``Operation`` over every file the injector opened, from the last
/// ``resetCounts()``: run an operation once without a schedule to count its calls, then once per
/// call with the fault there (``FaultSweep`` does both).
///
/// A ``Kind/powerLoss`` drops every write not synced since its file's last sync, and from then on
/// every call of every file open at the time fails, as if the machine had stopped: close those
/// connections, call ``restorePower()``, and reopen. What the model cannot simulate is listed in
/// `docs/RELIABILITY.md`.
public final class FaultInjector: @unchecked Sendable {
    // @unchecked Sendable: the C instance guards its state with a mutex; `instance` never changes.

    /// A class of I/O calls the schedule counts.
    public enum Operation: Int32, CaseIterable, Sendable, Hashable, CustomStringConvertible {
        /// `xRead`: fails with `SQLITE_IOERR_READ`.
        case read = 0
        /// `xWrite`: fails with `SQLITE_IOERR_WRITE`, `SQLITE_FULL`, as a short write or a power loss.
        case write = 1
        /// `xSync`: fails with `SQLITE_IOERR_FSYNC`.
        case sync = 2
        /// `xTruncate`: fails with `SQLITE_IOERR_TRUNCATE`.
        case truncate = 3
        /// `xLock`, `xUnlock`, `xCheckReservedLock` and taking a WAL `xShmLock`: their
        /// `SQLITE_IOERR_*` codes.
        case lock = 4
        /// `xFileSize`: fails with `SQLITE_IOERR_FSTAT`.
        case fileSize = 5
        /// `xOpen`: fails with `SQLITE_CANTOPEN`.
        case open = 6
        /// `xDelete`: fails with `SQLITE_IOERR_DELETE`.
        case delete = 7
        /// `xAccess`: fails with `SQLITE_IOERR_ACCESS`.
        case access = 8
        /// `xShmMap` (the WAL index): fails with `SQLITE_IOERR_SHMMAP`.
        case sharedMemoryMap = 9

        public var description: String {
            switch self {
            case .read: "read"
            case .write: "write"
            case .sync: "sync"
            case .truncate: "truncate"
            case .lock: "lock"
            case .fileSize: "file size"
            case .open: "open"
            case .delete: "delete"
            case .access: "access"
            case .sharedMemoryMap: "shm map"
            }
        }
    }

    /// What happens at the scheduled call.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// The operation's `SQLITE_IOERR_*` code (`SQLITE_CANTOPEN` for an open); nothing is done.
        case ioError
        /// `SQLITE_FULL` (the disk is full); nothing is written.
        case diskFull
        /// The first half of the bytes is written, then `SQLITE_FULL`, as SQLite's unix VFS reports
        /// a short write.
        case shortWrite
        /// The power goes: the call does not happen, every write not synced is dropped, and every
        /// file open at the time fails from then on.
        case powerLoss
        /// A power loss during a write: as ``powerLoss``, then the first `bytes` of the write being
        /// cut land on disk (`nil`: half of them).
        case tornPowerLoss(bytes: Int? = nil)

        /// The operations this kind of fault makes sense for: all of them for an I/O error; writes
        /// for a full disk, a short write and a torn write; writes, syncs and truncates for a power
        /// loss (the moments the disk's state changes).
        public var operations: [Operation] {
            switch self {
            case .ioError: Operation.allCases
            case .diskFull, .shortWrite, .tornPowerLoss: [.write]
            case .powerLoss: [.write, .sync, .truncate]
            }
        }

        /// Whether the kind cuts the power.
        public var cutsPower: Bool {
            switch self {
            case .powerLoss, .tornPowerLoss: true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .ioError: "I/O error"
            case .diskFull: "disk full"
            case .shortWrite: "short write"
            case .powerLoss: "power loss"
            case .tornPowerLoss(let bytes): bytes.map { "torn power loss (\($0) bytes)" } ?? "torn power loss"
            }
        }

        var rawValue: Int32 {
            switch self {
            case .ioError: Int32(SLATE_FAULT_IO_ERROR.rawValue)
            case .diskFull: Int32(SLATE_FAULT_DISK_FULL.rawValue)
            case .shortWrite: Int32(SLATE_FAULT_SHORT_WRITE.rawValue)
            case .powerLoss: Int32(SLATE_FAULT_POWER_LOSS.rawValue)
            case .tornPowerLoss: Int32(SLATE_FAULT_POWER_LOSS_TORN.rawValue)
            }
        }
    }

    /// One scheduled fault: the `occurrence`-th call of `operation` fails with `kind`.
    public struct Fault: Sendable, Hashable, CustomStringConvertible {
        /// The class of calls counted.
        public var operation: Operation
        /// Which call fails, from 1, counted from the last ``FaultInjector/resetCounts()``.
        public var occurrence: Int
        /// What happens.
        public var kind: Kind
        /// Whether every later call of `operation` fails too (a disk that stays broken), rather
        /// than only the one (a transient error).
        public var isPersistent: Bool

        /// Creates a fault.
        public init(_ operation: Operation, occurrence: Int, kind: Kind, isPersistent: Bool = false) {
            self.operation = operation
            self.occurrence = occurrence
            self.kind = kind
            self.isPersistent = isPersistent
        }

        public var description: String {
            "\(kind) at \(operation) #\(occurrence)\(isPersistent ? " (persistent)" : "")"
        }
    }

    /// The last fault injected.
    public struct InjectedFault: Sendable, Hashable {
        /// The class of the call that failed.
        public var operation: Operation
        /// The path of the file it hit; empty for a call without a file or a temporary file.
        public var path: String
    }

    private let instance: OpaquePointer

    /// The name of the VFS, for a `vfs=` URI parameter.
    public let vfsName: String

    /// Registers a new fault-injecting VFS, with no fault scheduled.
    ///
    /// - Throws: ``DatabaseError`` when SQLite refuses to register it.
    public init() throws {
        guard let instance = slate_fault_vfs_create() else {
            throw DatabaseError(resultCode: .error, message: "cannot register the fault-injecting VFS")
        }
        self.instance = instance
        self.vfsName = String(cString: slate_fault_vfs_name(instance))
    }

    deinit {
        // Refused while a connection still has a file open through the VFS: the VFS then stays
        // registered (a small leak) rather than freed under that connection.
        _ = slate_fault_vfs_destroy(instance)
    }

    /// A location that opens the file at `path` through this VFS (a `file:` URI with `vfs=`).
    public func location(ofFile path: String) -> Database.Location {
        .uri(uri(ofFile: path))
    }

    /// The `file:` URI of the file at `path` through this VFS.
    public func uri(ofFile path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + Self.percentEncoded(absolute) + "?vfs=" + Self.percentEncoded(vfsName)
    }

    /// `text` with the characters a URI path or value cannot hold as is percent-encoded.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    // MARK: The schedule

    /// Schedules `fault`, replacing any earlier one, or cancels the schedule (`nil`). The counters
    /// are not reset.
    public func schedule(_ fault: Fault?) {
        guard let fault else {
            slate_fault_vfs_disarm(instance)
            return
        }
        var tornBytes: Int64 = -1
        if case .tornPowerLoss(let bytes?) = fault.kind { tornBytes = Int64(max(0, bytes)) }
        slate_fault_vfs_arm(
            instance, fault.operation.rawValue, Int64(fault.occurrence), fault.kind.rawValue,
            fault.isPersistent ? 1 : 0, tornBytes)
    }

    /// Sets every operation's counter to zero.
    public func resetCounts() {
        slate_fault_vfs_reset_counts(instance)
    }

    /// How many calls of `operation` were counted since the last ``resetCounts()``.
    public func count(of operation: Operation) -> Int {
        Int(slate_fault_vfs_count(instance, operation.rawValue))
    }

    /// The calls counted since the last ``resetCounts()``, per operation.
    public var counts: [Operation: Int] {
        Dictionary(uniqueKeysWithValues: Operation.allCases.map { ($0, count(of: $0)) })
    }

    /// How many faults were injected since the injector was created.
    public var injectedFaultCount: Int {
        Int(slate_fault_vfs_injected(instance))
    }

    /// The last fault injected, or `nil` before the first.
    public var lastInjectedFault: InjectedFault? {
        var operation: Int32 = -1
        var kind: Int32 = 0
        var path = [CChar](repeating: 0, count: 512)
        slate_fault_vfs_last_fault(instance, &operation, &kind, &path, Int32(path.count))
        guard let known = Operation(rawValue: operation) else { return nil }
        let end = path.firstIndex(of: 0) ?? path.count
        return InjectedFault(
            operation: known, path: String(decoding: path[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// How many files connections have open through this VFS.
    public var openFileCount: Int {
        Int(slate_fault_vfs_open_files(instance))
    }

    // MARK: Power

    /// Whether a power loss was injected and the power is not restored yet.
    public var isPoweredOff: Bool {
        slate_fault_vfs_is_powered_off(instance) != 0
    }

    /// How many bytes of writes not synced yet a power loss would drop now.
    public var unsyncedByteCount: Int {
        Int(slate_fault_vfs_unsynced_bytes(instance))
    }

    /// Turns the power back on after a power loss: connections opened from now on work; those that
    /// were open when it went keep failing until they are closed.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/ioError`` when dropping the unsynced writes
    ///   failed when the power went (the files may then hold them).
    public func restorePower() throws {
        let error = slate_fault_vfs_restore_power(instance)
        guard error == 0 else {
            throw DatabaseError(
                resultCode: .ioError,
                message:
                    "the fault-injecting VFS could not drop the unsynced writes: \(String(cString: strerror(error)))")
        }
    }
}
