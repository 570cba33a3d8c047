/// Objects that higher layers keep with a connection or a statement, built on first use and kept
/// as long as their owner: the record SQL the query layer renders once per table type and
/// connection, the decoder a Codable record type keeps per statement.
///
/// The core knows nothing of what is stored: each object is found by its class, the type it
/// serves (a record type) and a variant number.
///
/// A class, held by `let` in its owner: the lookup of the attachment used last reads `last`, whose
/// accesses are all instantaneous, so the compiler checks none of them for exclusivity at run
/// time. As a struct in a `var` of its owner, every lookup was a dynamic check of the whole
/// struct (`swift_beginAccess`, whose other accesses span the dictionary's calls): 76 instructions
/// a lookup, 0.76 M (1.3 %) of `pk-lookups-100k` `slate-find`.
final class Attachments {
    /// Identifies an attachment.
    struct Key: Hashable {
        let kind: ObjectIdentifier
        let subject: ObjectIdentifier
        let variant: Int

        /// The key of the `Object` attached for `subject` and `variant`.
        init<Object: AnyObject>(_ type: Object.Type, for subject: Any.Type, variant: Int) {
            kind = ObjectIdentifier(type)
            self.subject = ObjectIdentifier(subject)
            self.variant = variant
        }
    }

    private var objects: [Key: AnyObject] = [:]
    /// The attachment used last: most owners serve one record type, so most lookups end here
    /// without hashing.
    private var last: (key: Key, object: AnyObject)?

    init() {}

    /// The object attached under `key`, if any.
    func existing(_ key: Key) -> AnyObject? {
        if let last, last.key == key { return last.object }
        guard let known = objects[key] else { return nil }
        last = (key, known)
        return known
    }

    /// The object attached under `key` when it is the one used last, else `nil`: no hashing, no
    /// write.
    func lastObject(for key: Key) -> AnyObject? {
        guard let last, last.key == key else { return nil }
        return last.object
    }

    /// Attaches `object` under `key`.
    func insert(_ object: AnyObject, for key: Key) {
        objects[key] = object
        last = (key, object)
    }

    /// Forgets every attachment.
    func removeAll() {
        objects.removeAll()
        last = nil
    }

    /// The `Object` attached under `key` to the owner whose attachments `existing` and `insert`
    /// reach, or the one `make` builds. The attachments are accessed only for the lookup and the
    /// insertion, never while `make` runs, so `make` may itself use the owner's attachments.
    static func object<Object: AnyObject>(
        _ type: Object.Type, key: Key, existing: () -> AnyObject?, insert: (AnyObject) -> Void,
        make: () throws -> Object
    ) rethrows -> Object {
        // The key holds the object's class, so the casts succeed; an object of another class would
        // be replaced rather than trusted.
        if let known = existing() as? Object { return known }
        let object = try make()
        if let built = existing() as? Object { return built }  // `make` attached one itself
        insert(object)
        return object
    }
}

extension Statement {
    /// The `Object` attached to this statement for `subject` and `variant`; `make` builds it the
    /// first time. Attachments live as long as the statement.
    package func attachment<Object: AnyObject>(
        _ type: Object.Type, for subject: Any.Type, variant: Int = 0, make: () throws -> Object
    ) rethrows -> Object {
        let key = Attachments.Key(type, for: subject, variant: variant)
        return try Attachments.object(
            type, key: key, existing: { attachments.existing(key) }, insert: { attachments.insert($0, for: key) },
            make: make)
    }

    /// The `Object` attached to this statement for `subject` and `variant` when it is the
    /// attachment used last, else `nil`: the lookup of a caller that asks for the same attachment
    /// for every record, without hashing or writing.
    package func lastAttachment<Object: AnyObject>(_ type: Object.Type, for subject: Any.Type, variant: Int = 0)
        -> Object?
    {
        attachments.lastObject(for: Attachments.Key(type, for: subject, variant: variant)) as? Object
    }
}

extension Database {
    /// The `Object` attached to this connection for `subject` and `variant`; `make` builds it the
    /// first time. Attachments live as long as the connection.
    package func attachment<Object: AnyObject>(
        _ type: Object.Type, for subject: Any.Type, variant: Int = 0, make: () throws -> Object
    ) rethrows -> Object {
        let key = Attachments.Key(type, for: subject, variant: variant)
        if let known = attachments.lastObject(for: key) as? Object { return known }
        return try Attachments.object(
            type, key: key, existing: { attachments.existing(key) }, insert: { attachments.insert($0, for: key) },
            make: make)
    }
}
