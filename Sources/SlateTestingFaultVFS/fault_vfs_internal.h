// The fault-injecting VFS's private declarations, shared by its two files: slate_fault_vfs.c (the
// schedule, the file and VFS methods, the instance) and fault_power.c (what a power loss undoes).
#ifndef SLATE_FAULT_VFS_INTERNAL_H
#define SLATE_FAULT_VFS_INTERNAL_H

#include "slate_fault_vfs.h"

#include "shim.h"

#include <pthread.h>

/// The bytes one write or truncate replaced, to put back if the power is cut before a sync.
typedef struct undo_entry {
    sqlite3_int64 offset;
    int length;
    unsigned char *bytes;
} undo_entry;

/// A file with writes not synced yet: its size at its last sync and what each write replaced.
typedef struct path_record {
    char *path;
    sqlite3_int64 synced_size;
    undo_entry *entries;
    int count;
    int capacity;
    sqlite3_int64 unsynced_bytes;
    struct path_record *next;
} path_record;

struct slate_fault_vfs {
    sqlite3_vfs base;  // first: SQLite hands this pointer back to every method
    sqlite3_vfs *real;
    pthread_mutex_t mutex;
    char name[64];
    // The schedule.
    int armed_operation;  // -1: none
    sqlite3_int64 armed_occurrence;
    int armed_kind;
    int armed_persistent;
    sqlite3_int64 torn_bytes;
    // The counters.
    sqlite3_int64 counts[SLATE_FAULT_OPERATION_COUNT];
    sqlite3_int64 injected;
    int last_operation;
    int last_kind;
    char last_path[512];
    // Power.
    int powered_off;
    sqlite3_int64 generation;  // files opened under an older generation saw the power go
    int undo_errno;
    path_record *records;
    int open_files;
};

/// One open file: the real file follows this struct in the same allocation.
typedef struct fault_file {
    sqlite3_file base;
    slate_fault_vfs *vfs;
    sqlite3_file *real;
    char *path;  // NULL for temporary files, whose contents no one reads after a crash
    sqlite3_int64 generation;
} fault_file;

/// Remembers what the write of `length` bytes at `offset` replaces in `file`. Mutex held.
int slate_fault_remember(fault_file *file, sqlite3_int64 offset, sqlite3_int64 length);

/// Forgets `path`'s unsynced writes: it was synced, or deleted. Mutex held.
void slate_fault_drop_record(slate_fault_vfs *vfs, const char *path);

/// Frees every record. Mutex held, or the instance being destroyed.
void slate_fault_drop_all_records(slate_fault_vfs *vfs);

/// Cuts the power, letting the first `torn` bytes of the cut write land. Mutex held.
void slate_fault_cut_power(slate_fault_vfs *vfs, fault_file *cut, const void *cut_bytes, sqlite3_int64 cut_length,
                           sqlite3_int64 cut_offset, sqlite3_int64 torn);

/// The bytes of unsynced writes remembered. Mutex held.
int64_t slate_fault_unsynced_bytes(const slate_fault_vfs *vfs);

#endif
