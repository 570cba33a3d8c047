/// Objects that higher layers keep with a connection or a statement, built on first use and kept
/// as long as their owner: the record SQL the query layer renders once per table type and
/// connection, the decoder a Codable record type keeps per statement.
///
/// The core knows nothing of what is stored: each object is found by its class, the type it
/// serves (a record type) and a variant number.
@usableFromInline
package struct Attachments {
    /// Identifies an attachment.
    @usableFromInline
    struct Key: Hashable {
        @usableFromInline let kind: ObjectIdentifier
        @usableFromInline let subject: ObjectIdentifier
        @usableFromInline let variant: Int

        @usableFromInline
        init(kind: ObjectIdentifier, subject: ObjectIdentifier, variant: Int) {
            self.kind = kind
            self.subject = subject
            self.variant = variant
        }
    }

    private var objects: [Key: AnyObject] = [:]
    /// The attachment used last: most owners serve one record type, so most lookups end here
    /// without hashing.
    @usableFromInline private(set) var last: (key: Key, object: AnyObject)?

    package init() {}

    /// The key of the `Object` attached for `subject` and `variant`.
    @inlinable @inline(__always)
    static func key<Object: AnyObject>(_ type: Object.Type, for subject: Any.Type, variant: Int) -> Key {
        Key(kind: ObjectIdentifier(type), subject: ObjectIdentifier(subject), variant: variant)
    }

    /// The object attached under `key` when it is the one used last: the lookup inlined into
    /// callers, which neither hashes nor writes.
    @inlinable @inline(__always)
    func lastObject(for key: Key) -> AnyObject? {
        guard let last, last.key.kind == key.kind, last.key.subject == key.subject, last.key.variant == key.variant
        else {
            return nil
        }
        return last.object
    }

    /// The object attached under `key`, if any.
    @inline(__always)
    mutating func existing(_ key: Key) -> AnyObject? {
        if let last, last.key == key { return last.object }
        guard let known = objects[key] else { return nil }
        last = (key, known)
        return known
    }

    /// Attaches `object` under `key`.
    mutating func insert(_ object: AnyObject, for key: Key) {
        objects[key] = object
        last = (key, object)
    }

    /// Forgets every attachment.
    package mutating func removeAll() {
        objects.removeAll()
        last = nil
    }
}

extension Attachments {
    /// The `Object` attached under `key` to the owner whose attachments `attachments` reaches, or
    /// the one `make` builds. The attachments are accessed only for the lookup and the insertion,
    /// never while `make` runs, so `make` may itself use the owner's attachments.
    @inline(__always)
    static func object<Object: AnyObject>(
        _ type: Object.Type, key: Key, existing: () -> AnyObject?, insert: (AnyObject) -> Void,
        make: () throws -> Object
    ) rethrows -> Object {
        // The key holds the object's class, so the downcasts cannot fail.
        if let known = existing() { return unsafeDowncast(known, to: Object.self) }
        let object = try make()
        if let built = existing() { return unsafeDowncast(built, to: Object.self) }  // `make` attached one itself
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
        let key = Attachments.key(type, for: subject, variant: variant)
        return try Attachments.object(
            type, key: key, existing: { attachments.existing(key) }, insert: { attachments.insert($0, for: key) },
            make: make)
    }
}

extension Statement {
    /// The `Object` attached to this statement for `subject` and `variant` when it is the
    /// attachment used last, else `nil`: the lookup of a caller that asks for the same attachment
    /// for every record, inlined into it, without hashing or writing.
    @inlinable
    package func lastAttachment<Object: AnyObject>(_ type: Object.Type, for subject: Any.Type, variant: Int = 0)
        -> Object?
    {
        // The key holds the object's class, so the downcast cannot fail.
        attachments.lastObject(for: Attachments.key(type, for: subject, variant: variant)).map {
            unsafeDowncast($0, to: Object.self)
        }
    }
}

extension Database {
    /// The `Object` attached to this connection for `subject` and `variant`; `make` builds it the
    /// first time. Attachments live as long as the connection.
    ///
    /// Inlined: finding the attachment used last is a few comparisons in the caller.
    @inlinable
    package func attachment<Object: AnyObject>(
        _ type: Object.Type, for subject: Any.Type, variant: Int = 0, make: () throws -> Object
    ) rethrows -> Object {
        let key = Attachments.key(type, for: subject, variant: variant)
        // The key holds the object's class, so the downcast cannot fail.
        if let known = attachments.lastObject(for: key) { return unsafeDowncast(known, to: Object.self) }
        return try attachment(type, key: key, make: make)
    }

    /// ``attachment(_:for:variant:make:)`` beyond the attachment used last.
    @usableFromInline
    func attachment<Object: AnyObject>(_ type: Object.Type, key: Attachments.Key, make: () throws -> Object) rethrows
        -> Object
    {
        try Attachments.object(
            type, key: key, existing: { attachments.existing(key) }, insert: { attachments.insert($0, for: key) },
            make: make)
    }
}
