/// Which slot (a column index, or a parameter position) each coding key maps to, shared by the
/// records of one statement that are decoded or encoded by coding key.
///
/// The first record records its keys' names in the order the type asks for them; later records
/// follow that order, comparing each key's name with the recorded one (equal names of a synthesized
/// `CodingKeys` are the same literal, compared in one step) instead of hashing it. A record that
/// asks for other keys, or in another order, falls back to the dictionary for the rest of that
/// record.
struct CodingKeyOrder {
    /// The slot of every key seen so far; `-1` for a key that has none.
    private var slots: [String: Int] = [:]
    /// The keys in the order the first record asked for them, with their slots.
    private(set) var requests: [(key: String, slot: Int)] = []
    /// Whether the current record is the first one, whose requests are recorded.
    private(set) var isRecording = true
    /// The next expected request.
    private(set) var cursor = 0

    /// Starts a record.
    mutating func begin() {
        cursor = 0
    }

    /// Ends a record that was decoded or encoded in full; after the first one, requests are
    /// expected in its order.
    mutating func finish() {
        isRecording = false
    }

    /// The slot of `key` when it is the next key of the recorded order and has one (the fast path:
    /// one comparison), else `nil`: the caller then asks ``slot(forKey:resolve:)``.
    mutating func followingSlot(forKey key: String) -> Int? {
        let next = cursor
        guard !isRecording, next < requests.count, requests[next].key == key else { return nil }
        let slot = requests[next].slot
        guard slot >= 0 else { return nil }
        cursor = next &+ 1
        return slot
    }

    /// The slot of `key`, or `nil` when it has none. `resolve` finds it (or returns `-1`) the first
    /// time the key is seen.
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
