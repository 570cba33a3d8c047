import SlateConcurrency
import SlateCore
import SlateQuery

/// Which slot (a column index, or a parameter position) each coding key maps to, shared by the
/// records of one statement that are decoded or encoded by coding key.
///
/// The first record records its keys in the order the type asks for them; later records follow
/// that order, comparing each key with the recorded one (its bits when the key type is plain data,
/// else its name) instead of hashing it. A record that asks
/// for other keys, or in another order, falls back to the dictionary for the rest of that record.
struct CodingKeyOrder {
    /// The slot of every key seen so far; `-1` for a key that has none.
    private var slots: [String: Int] = [:]
    /// The keys in the order the first record asked for them, with their slots.
    private var requests: [(key: String, slot: Int)] = []
    /// Whether the current record is the first one, whose requests are recorded.
    private var isRecording = true
    /// The next expected request.
    private var cursor = 0
    /// The bits of each request's key, beside `requests`, while its key type is plain data of at
    /// most 8 bytes (a synthesized `CodingKeys` enum is one byte).
    private var requestBits: [UInt64] = []
    /// The key type of the first request.
    private var recordedKeyType: ObjectIdentifier?
    /// Whether every recorded request has its bits.
    private var isComparable = true
    /// The key type whose bits later records compare, once the first record is complete; `nil`
    /// when they compare names. Equal bits of one plain-data type are the same key.
    private var comparedKeyType: ObjectIdentifier?

    /// Starts a record.
    mutating func begin() {
        cursor = 0
    }

    /// Ends a record that was decoded or encoded in full; after the first one, requests are
    /// expected in its order.
    mutating func finish() {
        if isRecording, isComparable, requestBits.count == requests.count {
            comparedKeyType = recordedKeyType
        }
        isRecording = false
    }

    /// The slot of `key`, or `nil` when it has none: the expected request is recognized by its
    /// key's bits when the key type is plain data, by its name otherwise.
    @inline(__always)
    mutating func slot<Key: CodingKey>(for key: Key, resolve: (String) -> Int) -> Int? {
        if ObjectIdentifier(Key.self) == comparedKeyType, cursor < requestBits.count,
            requestBits[cursor] == PlainKeyBits.bits(of: key)
        {
            let slot = requests[cursor].slot
            cursor &+= 1
            return slot >= 0 ? slot : nil
        }
        return slot(named: key, resolve: resolve)
    }

    /// ``slot(for:resolve:)`` by the key's name; while recording, keeps the key's bits.
    @inline(never)
    private mutating func slot<Key: CodingKey>(named key: Key, resolve: (String) -> Int) -> Int? {
        let recorded = requests.count
        let slot = slot(forKey: key.stringValue, resolve: resolve)
        if isRecording, isComparable, requests.count > recorded {
            let keyType = ObjectIdentifier(Key.self)
            if requestBits.isEmpty {
                if PlainKeyBits.isPlain(Key.self) {
                    recordedKeyType = keyType
                } else {
                    isComparable = false
                }
            } else if recordedKeyType != keyType {
                isComparable = false
            }
            if isComparable { requestBits.append(PlainKeyBits.bits(of: key)) }
        }
        return slot
    }

    /// The slot of `key`, or `nil` when it has none. `resolve` finds it (or returns `-1`) the first
    /// time the key is seen.
    @inline(__always)
    mutating func slot(forKey key: String, resolve: (String) -> Int) -> Int? {
        if !isRecording, cursor < requests.count, requests[cursor].key == key {
            let slot = requests[cursor].slot
            cursor += 1
            return slot >= 0 ? slot : nil
        }
        return lookUp(key, resolve: resolve)
    }

    private mutating func lookUp(_ key: String, resolve: (String) -> Int) -> Int? {
        let slot: Int
        if let known = slots[key] {
            slot = known
        } else {
            slot = resolve(key)
            slots[key] = slot
        }
        if isRecording { requests.append((key, slot)) }
        return slot >= 0 ? slot : nil
    }
}

/// Coding keys recognized by their bits: a key type that is plain data of 0, 1, 2, 4 or 8 bytes (a
/// synthesized `CodingKeys` enum is one byte), whose equal bits are the same key. What
/// ``CodingKeyOrder`` and `RecordBinder` compare instead of key names.
enum PlainKeyBits {
    /// Whether values of `Key` can be compared by their bits: plain data of 0, 1, 2, 4 or 8 bytes.
    static func isPlain<Key>(_ type: Key.Type) -> Bool {
        let width = MemoryLayout<Key>.size
        return _isPOD(Key.self) && (width == 0 || width == 1 || width == 2 || width == 4 || width == 8)
    }

    /// The bits of `key`, a value of a type for which ``isPlain(_:)`` holds. The switch is on the
    /// type's size, which the casts check anyway; a one-byte key (a synthesized `CodingKeys`) is
    /// tested first, one size comparison. (Reading the key in place with `withUnsafeBytes(of:)`
    /// instead was measured: it is not inlined into the unspecialized containers, and costs more
    /// than the copy witness the cast calls.)
    @inline(__always)
    static func bits<Key>(of key: Key) -> UInt64 {
        if _fastPath(MemoryLayout<Key>.size == 1) { return UInt64(unsafeBitCast(key, to: UInt8.self)) }
        switch MemoryLayout<Key>.size {
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        default: return 0
        }
    }
}
