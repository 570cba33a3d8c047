// The fault-injecting VFS of SlateTesting: see include/slate_fault_vfs.h and docs/RELIABILITY.md.
#include "fault_vfs_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// MARK: - The schedule

/// What a call does: pass through, fail because the power is off, or the fault scheduled.
enum { PASS = 0, DEAD = -1 };

/// Counts a call of `operation` on `file` (NULL for calls without a file) and returns PASS, DEAD
/// or the kind of fault to inject. Called with the mutex held.
static int schedule(slate_fault_vfs *vfs, int operation, fault_file *file) {
    if (vfs->powered_off || (file && file->generation != vfs->generation)) return DEAD;
    sqlite3_int64 count = ++vfs->counts[operation];
    if (vfs->armed_operation != operation) return PASS;
    if (count != vfs->armed_occurrence && !(vfs->armed_persistent && count > vfs->armed_occurrence)) return PASS;
    vfs->injected += 1;
    vfs->last_operation = operation;
    vfs->last_kind = vfs->armed_kind;
    snprintf(vfs->last_path, sizeof(vfs->last_path), "%s", file && file->path ? file->path : "");
    return vfs->armed_kind;
}

/// The code a failed call of `operation` returns for `kind`.
static int failure_code(int kind, int io_error) {
    return kind == SLATE_FAULT_DISK_FULL || kind == SLATE_FAULT_SHORT_WRITE ? SQLITE_FULL : io_error;
}

/// Runs the schedule for a call that changes nothing on disk: PASS, or the code to return (after
/// cutting the power when that is the fault).
static int check(fault_file *file, int operation, int io_error) {
    slate_fault_vfs *vfs = file->vfs;
    pthread_mutex_lock(&vfs->mutex);
    int action = schedule(vfs, operation, file);
    if (action == SLATE_FAULT_POWER_LOSS || action == SLATE_FAULT_POWER_LOSS_TORN) {
        slate_fault_cut_power(vfs, NULL, NULL, 0, 0, 0);
    }
    pthread_mutex_unlock(&vfs->mutex);
    if (action == PASS) return PASS;
    return action == DEAD ? io_error : failure_code(action, io_error);
}

// MARK: - File methods

#define REAL(file) (((fault_file *)(file))->real)

static int fault_close(sqlite3_file *base) {
    fault_file *file = (fault_file *)base;
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    pthread_mutex_lock(&file->vfs->mutex);
    file->vfs->open_files -= 1;
    pthread_mutex_unlock(&file->vfs->mutex);
    free(file->path);
    file->path = NULL;
    // A file that saw the power go closes quietly: its process is gone as far as the disk knows.
    return file->generation == file->vfs->generation ? rc : SQLITE_OK;
}

static int fault_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    int rc = check((fault_file *)base, SLATE_FAULT_READ, SQLITE_IOERR_READ);
    if (rc != PASS) return rc;
    return REAL(base)->pMethods->xRead(REAL(base), buffer, amount, offset);
}

static int fault_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    fault_file *file = (fault_file *)base;
    slate_fault_vfs *vfs = file->vfs;
    pthread_mutex_lock(&vfs->mutex);
    int action = schedule(vfs, SLATE_FAULT_WRITE, file);
    int rc;
    switch (action) {
    case DEAD:
        rc = SQLITE_IOERR_WRITE;
        break;
    case SLATE_FAULT_POWER_LOSS:
    case SLATE_FAULT_POWER_LOSS_TORN: {
        sqlite3_int64 torn = action == SLATE_FAULT_POWER_LOSS ? 0 : vfs->torn_bytes < 0 ? amount / 2 : vfs->torn_bytes;
        slate_fault_cut_power(vfs, file, buffer, amount, offset, torn);
        rc = SQLITE_IOERR_WRITE;
        break;
    }
    case SLATE_FAULT_SHORT_WRITE:
        rc = slate_fault_remember(file, offset, amount / 2);
        if (rc == SQLITE_OK && amount / 2 > 0) rc = file->real->pMethods->xWrite(file->real, buffer, amount / 2, offset);
        if (rc == SQLITE_OK) rc = SQLITE_FULL;
        break;
    case PASS:
        rc = slate_fault_remember(file, offset, amount);
        if (rc == SQLITE_OK) rc = file->real->pMethods->xWrite(file->real, buffer, amount, offset);
        break;
    default:
        rc = failure_code(action, SQLITE_IOERR_WRITE);
        break;
    }
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int fault_truncate(sqlite3_file *base, sqlite3_int64 size) {
    fault_file *file = (fault_file *)base;
    slate_fault_vfs *vfs = file->vfs;
    pthread_mutex_lock(&vfs->mutex);
    int action = schedule(vfs, SLATE_FAULT_TRUNCATE, file);
    int rc;
    if (action == PASS) {
        sqlite3_int64 current = 0;
        rc = file->real->pMethods->xFileSize(file->real, &current);
        if (rc == SQLITE_OK && size < current) rc = slate_fault_remember(file, size, current - size);
        if (rc == SQLITE_OK) rc = file->real->pMethods->xTruncate(file->real, size);
    } else if (action == SLATE_FAULT_POWER_LOSS || action == SLATE_FAULT_POWER_LOSS_TORN) {
        slate_fault_cut_power(vfs, NULL, NULL, 0, 0, 0);
        rc = SQLITE_IOERR_TRUNCATE;
    } else {
        rc = action == DEAD ? SQLITE_IOERR_TRUNCATE : failure_code(action, SQLITE_IOERR_TRUNCATE);
    }
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int fault_sync(sqlite3_file *base, int flags) {
    fault_file *file = (fault_file *)base;
    slate_fault_vfs *vfs = file->vfs;
    pthread_mutex_lock(&vfs->mutex);
    int action = schedule(vfs, SLATE_FAULT_SYNC, file);
    int rc;
    if (action == PASS) {
        rc = file->real->pMethods->xSync(file->real, flags);
        // Durable now: nothing of this file is dropped by a later power loss.
        if (rc == SQLITE_OK && file->path) slate_fault_drop_record(vfs, file->path);
    } else if (action == SLATE_FAULT_POWER_LOSS || action == SLATE_FAULT_POWER_LOSS_TORN) {
        slate_fault_cut_power(vfs, NULL, NULL, 0, 0, 0);
        rc = SQLITE_IOERR_FSYNC;
    } else {
        rc = action == DEAD ? SQLITE_IOERR_FSYNC : failure_code(action, SQLITE_IOERR_FSYNC);
    }
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int fault_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    int rc = check((fault_file *)base, SLATE_FAULT_FILE_SIZE, SQLITE_IOERR_FSTAT);
    if (rc != PASS) return rc;
    return REAL(base)->pMethods->xFileSize(REAL(base), size);
}

static int fault_lock(sqlite3_file *base, int level) {
    int rc = check((fault_file *)base, SLATE_FAULT_LOCK, SQLITE_IOERR_LOCK);
    if (rc != PASS) return rc;
    return REAL(base)->pMethods->xLock(REAL(base), level);
}

static int fault_unlock(sqlite3_file *base, int level) {
    int rc = check((fault_file *)base, SLATE_FAULT_LOCK, SQLITE_IOERR_UNLOCK);
    if (rc != PASS) return rc;
    return REAL(base)->pMethods->xUnlock(REAL(base), level);
}

static int fault_check_reserved_lock(sqlite3_file *base, int *result) {
    int rc = check((fault_file *)base, SLATE_FAULT_LOCK, SQLITE_IOERR_CHECKRESERVEDLOCK);
    if (rc != PASS) return rc;
    return REAL(base)->pMethods->xCheckReservedLock(REAL(base), result);
}

static int fault_file_control(sqlite3_file *base, int op, void *argument) {
    fault_file *file = (fault_file *)base;
    if (op == SQLITE_FCNTL_VFSNAME && argument) {
        // The real VFS's name, prefixed with this one's, as SQLite's own shims do.
        int rc = file->real->pMethods->xFileControl(file->real, op, argument);
        char *inner = *(char **)argument;
        *(char **)argument = sqlite3_mprintf("%s/%s", file->vfs->name, inner ? inner : "?");
        sqlite3_free(inner);
        (void)rc;
        return SQLITE_OK;
    }
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int fault_sector_size(sqlite3_file *base) {
    return REAL(base)->pMethods->xSectorSize(REAL(base));
}

static int fault_device_characteristics(sqlite3_file *base) {
    return REAL(base)->pMethods->xDeviceCharacteristics(REAL(base));
}

static int fault_shm_map(sqlite3_file *base, int region, int size, int extend, void volatile **pointer) {
    int rc = check((fault_file *)base, SLATE_FAULT_SHM_MAP, SQLITE_IOERR_SHMMAP);
    if (rc != PASS) return rc;
    return REAL(base)->pMethods->xShmMap(REAL(base), region, size, extend, pointer);
}

static int fault_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
    // Releasing a lock never fails: SQLite ignores the result of an unlock here, and a lock it
    // believes released must be.
    if (!(flags & SQLITE_SHM_UNLOCK)) {
        int rc = check((fault_file *)base, SLATE_FAULT_LOCK, SQLITE_IOERR_SHMLOCK);
        if (rc != PASS) return rc;
    }
    return REAL(base)->pMethods->xShmLock(REAL(base), offset, count, flags);
}

static void fault_shm_barrier(sqlite3_file *base) {
    REAL(base)->pMethods->xShmBarrier(REAL(base));
}

static int fault_shm_unmap(sqlite3_file *base, int delete_flag) {
    return REAL(base)->pMethods->xShmUnmap(REAL(base), delete_flag);
}

/// Version 1, for real files without shared memory.
static const sqlite3_io_methods fault_io_methods_v1 = {
    1, fault_close, fault_read, fault_write, fault_truncate, fault_sync, fault_file_size, fault_lock, fault_unlock,
    fault_check_reserved_lock, fault_file_control, fault_sector_size, fault_device_characteristics,
    NULL, NULL, NULL, NULL, NULL, NULL,
};

/// Version 2: shared memory (WAL), and no xFetch, so that SQLite never reads through a memory map
/// behind the schedule's back.
static const sqlite3_io_methods fault_io_methods_v2 = {
    2, fault_close, fault_read, fault_write, fault_truncate, fault_sync, fault_file_size, fault_lock, fault_unlock,
    fault_check_reserved_lock, fault_file_control, fault_sector_size, fault_device_characteristics,
    fault_shm_map, fault_shm_lock, fault_shm_barrier, fault_shm_unmap, NULL, NULL,
};

// MARK: - VFS methods

#define VFS(base) ((slate_fault_vfs *)(base))

/// Runs the schedule for a call without a file.
static int check_vfs(slate_fault_vfs *vfs, int operation, int io_error) {
    pthread_mutex_lock(&vfs->mutex);
    int action = schedule(vfs, operation, NULL);
    if (action == SLATE_FAULT_POWER_LOSS || action == SLATE_FAULT_POWER_LOSS_TORN) {
        slate_fault_cut_power(vfs, NULL, NULL, 0, 0, 0);
    }
    pthread_mutex_unlock(&vfs->mutex);
    if (action == PASS) return PASS;
    return action == DEAD ? io_error : failure_code(action, io_error);
}

static int fault_open(sqlite3_vfs *base, const char *name, sqlite3_file *handle, int flags, int *out_flags) {
    slate_fault_vfs *vfs = VFS(base);
    fault_file *file = (fault_file *)handle;
    memset(file, 0, sizeof(fault_file));
    file->vfs = vfs;
    file->real = (sqlite3_file *)(file + 1);
    int rc = check_vfs(vfs, SLATE_FAULT_OPEN, SQLITE_CANTOPEN);
    if (rc != PASS) return rc == SQLITE_FULL ? SQLITE_FULL : SQLITE_CANTOPEN;
    if (name && !(flags & SQLITE_OPEN_DELETEONCLOSE)) {
        file->path = strdup(name);
        if (file->path == NULL) return SQLITE_NOMEM;
    }
    rc = vfs->real->xOpen(vfs->real, name, file->real, flags, out_flags);
    if (rc != SQLITE_OK || file->real->pMethods == NULL) {
        free(file->path);
        file->path = NULL;
        return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
    }
    pthread_mutex_lock(&vfs->mutex);
    file->generation = vfs->generation;
    vfs->open_files += 1;
    pthread_mutex_unlock(&vfs->mutex);
    file->base.pMethods = file->real->pMethods->iVersion >= 2 ? &fault_io_methods_v2 : &fault_io_methods_v1;
    return SQLITE_OK;
}

static int fault_delete(sqlite3_vfs *base, const char *name, int sync_directory) {
    slate_fault_vfs *vfs = VFS(base);
    int rc = check_vfs(vfs, SLATE_FAULT_DELETE, SQLITE_IOERR_DELETE);
    if (rc != PASS) return rc;
    rc = vfs->real->xDelete(vfs->real, name, sync_directory);
    if (rc == SQLITE_OK || rc == SQLITE_IOERR_DELETE_NOENT) {
        pthread_mutex_lock(&vfs->mutex);
        slate_fault_drop_record(vfs, name);
        pthread_mutex_unlock(&vfs->mutex);
    }
    return rc;
}

static int fault_access(sqlite3_vfs *base, const char *name, int flags, int *result) {
    slate_fault_vfs *vfs = VFS(base);
    int rc = check_vfs(vfs, SLATE_FAULT_ACCESS, SQLITE_IOERR_ACCESS);
    if (rc != PASS) return rc;
    return vfs->real->xAccess(vfs->real, name, flags, result);
}

static int fault_full_pathname(sqlite3_vfs *base, const char *name, int size, char *out) {
    return VFS(base)->real->xFullPathname(VFS(base)->real, name, size, out);
}

static void *fault_dl_open(sqlite3_vfs *base, const char *name) {
    return VFS(base)->real->xDlOpen(VFS(base)->real, name);
}

static void fault_dl_error(sqlite3_vfs *base, int size, char *message) {
    VFS(base)->real->xDlError(VFS(base)->real, size, message);
}

static void (*fault_dl_sym(sqlite3_vfs *base, void *handle, const char *symbol))(void) {
    return VFS(base)->real->xDlSym(VFS(base)->real, handle, symbol);
}

static void fault_dl_close(sqlite3_vfs *base, void *handle) {
    VFS(base)->real->xDlClose(VFS(base)->real, handle);
}

static int fault_randomness(sqlite3_vfs *base, int size, char *out) {
    return VFS(base)->real->xRandomness(VFS(base)->real, size, out);
}

static int fault_sleep(sqlite3_vfs *base, int microseconds) {
    return VFS(base)->real->xSleep(VFS(base)->real, microseconds);
}

static int fault_current_time(sqlite3_vfs *base, double *time) {
    return VFS(base)->real->xCurrentTime(VFS(base)->real, time);
}

static int fault_get_last_error(sqlite3_vfs *base, int size, char *out) {
    return VFS(base)->real->xGetLastError ? VFS(base)->real->xGetLastError(VFS(base)->real, size, out) : 0;
}

static int fault_current_time_int64(sqlite3_vfs *base, sqlite3_int64 *time) {
    return VFS(base)->real->xCurrentTimeInt64(VFS(base)->real, time);
}

static int fault_set_system_call(sqlite3_vfs *base, const char *name, sqlite3_syscall_ptr call) {
    return VFS(base)->real->xSetSystemCall(VFS(base)->real, name, call);
}

static sqlite3_syscall_ptr fault_get_system_call(sqlite3_vfs *base, const char *name) {
    return VFS(base)->real->xGetSystemCall(VFS(base)->real, name);
}

static const char *fault_next_system_call(sqlite3_vfs *base, const char *name) {
    return VFS(base)->real->xNextSystemCall(VFS(base)->real, name);
}

// MARK: - The instance

static atomic_long slate_fault_vfs_counter = 0;

slate_fault_vfs *slate_fault_vfs_create(void) {
    if (sqlite3_initialize() != SQLITE_OK) return NULL;
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL) return NULL;
    slate_fault_vfs *vfs = calloc(1, sizeof(slate_fault_vfs));
    if (vfs == NULL) return NULL;
    if (pthread_mutex_init(&vfs->mutex, NULL) != 0) {
        free(vfs);
        return NULL;
    }
    long number = atomic_fetch_add(&slate_fault_vfs_counter, 1) + 1;
    snprintf(vfs->name, sizeof(vfs->name), "slate-fault-%ld-%ld", (long)getpid(), number);
    vfs->real = real;
    vfs->armed_operation = -1;
    vfs->last_operation = -1;
    vfs->torn_bytes = -1;
    sqlite3_vfs *base = &vfs->base;
    base->iVersion = real->iVersion < 3 ? real->iVersion : 3;
    base->szOsFile = (int)sizeof(fault_file) + real->szOsFile;
    base->mxPathname = real->mxPathname;
    base->zName = vfs->name;
    base->pAppData = vfs;
    base->xOpen = fault_open;
    base->xDelete = fault_delete;
    base->xAccess = fault_access;
    base->xFullPathname = fault_full_pathname;
    base->xDlOpen = fault_dl_open;
    base->xDlError = fault_dl_error;
    base->xDlSym = fault_dl_sym;
    base->xDlClose = fault_dl_close;
    base->xRandomness = fault_randomness;
    base->xSleep = fault_sleep;
    base->xCurrentTime = fault_current_time;
    base->xGetLastError = fault_get_last_error;
    if (base->iVersion >= 2) base->xCurrentTimeInt64 = fault_current_time_int64;
    if (base->iVersion >= 3) {
        base->xSetSystemCall = fault_set_system_call;
        base->xGetSystemCall = fault_get_system_call;
        base->xNextSystemCall = fault_next_system_call;
    }
    if (sqlite3_vfs_register(base, 0) != SQLITE_OK) {
        pthread_mutex_destroy(&vfs->mutex);
        free(vfs);
        return NULL;
    }
    return vfs;
}

int slate_fault_vfs_destroy(slate_fault_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    int busy = vfs->open_files > 0;
    pthread_mutex_unlock(&vfs->mutex);
    if (busy) return -1;
    sqlite3_vfs_unregister(&vfs->base);
    slate_fault_drop_all_records(vfs);
    pthread_mutex_destroy(&vfs->mutex);
    free(vfs);
    return 0;
}

const char *slate_fault_vfs_name(const slate_fault_vfs *vfs) {
    return vfs->name;
}

void slate_fault_vfs_arm(slate_fault_vfs *vfs, int operation, int64_t occurrence, int kind, int persistent,
                         int64_t torn_bytes) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->armed_operation = operation >= 0 && operation < SLATE_FAULT_OPERATION_COUNT ? operation : -1;
    vfs->armed_occurrence = occurrence;
    vfs->armed_kind = kind;
    vfs->armed_persistent = persistent;
    vfs->torn_bytes = torn_bytes;
    pthread_mutex_unlock(&vfs->mutex);
}

void slate_fault_vfs_disarm(slate_fault_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->armed_operation = -1;
    pthread_mutex_unlock(&vfs->mutex);
}

void slate_fault_vfs_reset_counts(slate_fault_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    memset(vfs->counts, 0, sizeof(vfs->counts));
    pthread_mutex_unlock(&vfs->mutex);
}

int64_t slate_fault_vfs_count(const slate_fault_vfs *vfs, int operation) {
    if (operation < 0 || operation >= SLATE_FAULT_OPERATION_COUNT) return 0;
    slate_fault_vfs *mutable = (slate_fault_vfs *)vfs;
    pthread_mutex_lock(&mutable->mutex);
    int64_t count = vfs->counts[operation];
    pthread_mutex_unlock(&mutable->mutex);
    return count;
}

int64_t slate_fault_vfs_injected(const slate_fault_vfs *vfs) {
    slate_fault_vfs *mutable = (slate_fault_vfs *)vfs;
    pthread_mutex_lock(&mutable->mutex);
    int64_t injected = vfs->injected;
    pthread_mutex_unlock(&mutable->mutex);
    return injected;
}

void slate_fault_vfs_last_fault(const slate_fault_vfs *vfs, int *operation, int *kind, char *path, int capacity) {
    slate_fault_vfs *mutable = (slate_fault_vfs *)vfs;
    pthread_mutex_lock(&mutable->mutex);
    if (operation) *operation = vfs->last_operation;
    if (kind) *kind = vfs->last_kind;
    if (path && capacity > 0) snprintf(path, (size_t)capacity, "%s", vfs->last_path);
    pthread_mutex_unlock(&mutable->mutex);
}

int slate_fault_vfs_is_powered_off(const slate_fault_vfs *vfs) {
    slate_fault_vfs *mutable = (slate_fault_vfs *)vfs;
    pthread_mutex_lock(&mutable->mutex);
    int off = vfs->powered_off;
    pthread_mutex_unlock(&mutable->mutex);
    return off;
}

int slate_fault_vfs_restore_power(slate_fault_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->powered_off = 0;
    int error = vfs->undo_errno;
    vfs->undo_errno = 0;
    pthread_mutex_unlock(&vfs->mutex);
    return error;
}

int64_t slate_fault_vfs_unsynced_bytes(const slate_fault_vfs *vfs) {
    slate_fault_vfs *mutable = (slate_fault_vfs *)vfs;
    pthread_mutex_lock(&mutable->mutex);
    int64_t total = slate_fault_unsynced_bytes(vfs);
    pthread_mutex_unlock(&mutable->mutex);
    return total;
}

int slate_fault_vfs_open_files(const slate_fault_vfs *vfs) {
    slate_fault_vfs *mutable = (slate_fault_vfs *)vfs;
    pthread_mutex_lock(&mutable->mutex);
    int count = vfs->open_files;
    pthread_mutex_unlock(&mutable->mutex);
    return count;
}
