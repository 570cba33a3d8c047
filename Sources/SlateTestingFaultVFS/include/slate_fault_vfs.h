#ifndef SLATE_FAULT_VFS_H
#define SLATE_FAULT_VFS_H

// A fault-injecting SQLite VFS for tests (SlateTesting, issue 34; docs/RELIABILITY.md).
//
// Each instance is a VFS of its own, registered under a unique name over the default VFS (never as
// the default), so tests running in parallel do not share schedules: a connection uses it when it
// is opened with the URI parameter `vfs=<name>`. Every call passes through to the default VFS
// except the one the schedule picks: the Nth call of one class of I/O operation (counted over all
// the files of the instance, from the last reset) fails with SQLite's code for that operation, with
// SQLITE_FULL, as a short write, or as a power loss.
//
// A power loss drops every write that was not synced: the instance remembers, per file, the bytes
// each write overwrote since the file's last xSync (and the size it had then), and when the power
// is cut it puts them back, newest first, and truncates the file to its synced size. A torn power
// loss then writes the first bytes of the write being cut. From the cut on, every call of every
// file open at the time fails, until slate_fault_vfs_restore_power(); files opened afterwards work.
//
// Not simulated (see docs/RELIABILITY.md): lost directory entries (creating or deleting a file is
// durable at once), writes reordered within a sync interval, a disk that acknowledges a sync it did
// not do, bit rot, and the -shm file (written through memory, not xWrite; SQLite rebuilds it).
// Memory-mapped reads are turned off (the files claim the version-2 I/O methods) so that every read
// goes through xRead.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The classes of I/O calls a schedule counts.
enum slate_fault_operation {
    SLATE_FAULT_READ = 0,       ///< xRead: fails with SQLITE_IOERR_READ
    SLATE_FAULT_WRITE = 1,      ///< xWrite: SQLITE_IOERR_WRITE, SQLITE_FULL or a short write
    SLATE_FAULT_SYNC = 2,       ///< xSync: SQLITE_IOERR_FSYNC
    SLATE_FAULT_TRUNCATE = 3,   ///< xTruncate: SQLITE_IOERR_TRUNCATE
    SLATE_FAULT_LOCK = 4,       ///< xLock, xUnlock, xCheckReservedLock, xShmLock: their SQLITE_IOERR_*
    SLATE_FAULT_FILE_SIZE = 5,  ///< xFileSize: SQLITE_IOERR_FSTAT
    SLATE_FAULT_OPEN = 6,       ///< xOpen: SQLITE_CANTOPEN
    SLATE_FAULT_DELETE = 7,     ///< xDelete: SQLITE_IOERR_DELETE
    SLATE_FAULT_ACCESS = 8,     ///< xAccess: SQLITE_IOERR_ACCESS
    SLATE_FAULT_SHM_MAP = 9,    ///< xShmMap: SQLITE_IOERR_SHMMAP
    SLATE_FAULT_OPERATION_COUNT = 10
};

/// What happens at the scheduled call.
enum slate_fault_kind {
    SLATE_FAULT_NONE = 0,
    SLATE_FAULT_IO_ERROR = 1,         ///< the operation's SQLITE_IOERR_* code, nothing done
    SLATE_FAULT_DISK_FULL = 2,        ///< SQLITE_FULL, nothing written (writes and truncates only)
    SLATE_FAULT_SHORT_WRITE = 3,      ///< the first half written, then SQLITE_FULL as the unix VFS reports it
    SLATE_FAULT_POWER_LOSS = 4,       ///< the call does not happen; every unsynced write is dropped
    SLATE_FAULT_POWER_LOSS_TORN = 5,  ///< as POWER_LOSS, then the first bytes of the cut write land
};

/// One instance: a registered VFS, its schedule and its counters.
typedef struct slate_fault_vfs slate_fault_vfs;

/// Registers a new instance over the default VFS, under a unique name. NULL when SQLite refuses
/// or memory runs out.
slate_fault_vfs *slate_fault_vfs_create(void);

/// Unregisters and frees the instance. Returns 0, or -1 (and does nothing) while files it opened
/// are still open: close every connection first.
int slate_fault_vfs_destroy(slate_fault_vfs *vfs);

/// The name to pass as `vfs=` in a URI, or to sqlite3_open_v2.
const char *slate_fault_vfs_name(const slate_fault_vfs *vfs);

/// Fails the `occurrence`-th call (1-based, counted from the last reset) of `operation` with
/// `kind`; with `persistent`, every later call of that operation fails too. `torn_bytes` is how
/// many bytes of the cut write land with SLATE_FAULT_POWER_LOSS_TORN (clamped to the write; a
/// negative value means half of it). Replaces any earlier schedule; the counters are not reset.
void slate_fault_vfs_arm(slate_fault_vfs *vfs, int operation, int64_t occurrence, int kind, int persistent,
                         int64_t torn_bytes);

/// Cancels the schedule: every later call passes through.
void slate_fault_vfs_disarm(slate_fault_vfs *vfs);

/// Sets every operation's counter to zero.
void slate_fault_vfs_reset_counts(slate_fault_vfs *vfs);

/// How many calls of `operation` were counted since the last reset.
int64_t slate_fault_vfs_count(const slate_fault_vfs *vfs, int operation);

/// How many faults were injected since the instance was created.
int64_t slate_fault_vfs_injected(const slate_fault_vfs *vfs);

/// The class and kind of the last fault injected (-1 and 0 before the first), and the path of the
/// file it hit ("" for a call without a file, or a temporary file). The path is copied into
/// `path` (at most `capacity` bytes, NUL-terminated).
void slate_fault_vfs_last_fault(const slate_fault_vfs *vfs, int *operation, int *kind, char *path, int capacity);

/// Whether the power is off (a power loss was injected and the power not restored).
int slate_fault_vfs_is_powered_off(const slate_fault_vfs *vfs);

/// Powers the instance back on: files opened from now on work; files that were open when the
/// power was cut keep failing until they are closed. Returns 0, or the errno of the first undo
/// that failed when the power was cut (the files may then hold unsynced data).
int slate_fault_vfs_restore_power(slate_fault_vfs *vfs);

/// How many files the instance has open.
int slate_fault_vfs_open_files(const slate_fault_vfs *vfs);

/// How many bytes of unsynced writes the instance would drop if the power were cut now (for tests
/// of the instance itself).
int64_t slate_fault_vfs_unsynced_bytes(const slate_fault_vfs *vfs);

#ifdef __cplusplus
}
#endif

#endif
