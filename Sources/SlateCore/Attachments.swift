/// Objects that higher layers keep with a connection or a statement, built on first use and kept
/// as long as their owner: the record SQL the query layer renders once per table type and
/// connection, the decoder a Codable record type keeps per statement.
///
/// The core knows nothing of what is stored: each object is found by its class, the type it
/// serves (a record type) and a variant number.
package struct Attachments {
    /// Identifies an attachment.
    struct Key: Hashable {
        let kind: ObjectIdentifier
        let subject: ObjectIdentifier
        let variant: Int
    }

    private var objects: [Key: AnyObject] = [:]
    /// The attachment used last: most owners serve one record type, so most lookups end here
    /// without hashing.
    private var last: (key: Key, object: AnyObject)?

    package init() {}

    /// The `Object` attached for `subject` and `variant`; `make` builds it the first time.
    package mutating func object<Object: AnyObject>(
        _ type: Object.Type, for subject: Any.Type, variant: Int = 0, make: () throws -> Object
    ) rethrows -> Object {
        let key = Key(kind: ObjectIdentifier(type), subject: ObjectIdentifier(subject), variant: variant)
        // The key holds the object's class, so the downcasts cannot fail.
        if let last, last.key == key { return unsafeDowncast(last.object, to: Object.self) }
        let object: Object
        if let known = objects[key] {
            object = unsafeDowncast(known, to: Object.self)
        } else {
            object = try make()
            objects[key] = object
        }
        last = (key, object)
        return object
    }

    /// Forgets every attachment.
    package mutating func removeAll() {
        objects.removeAll()
        last = nil
    }
}

extension Statement {
    /// The `Object` attached to this statement for `subject` and `variant`; `make` builds it the
    /// first time. Attachments live as long as the statement.
    package func attachment<Object: AnyObject>(
        _ type: Object.Type, for subject: Any.Type, variant: Int = 0, make: () throws -> Object
    ) rethrows -> Object {
        try attachments.object(type, for: subject, variant: variant, make: make)
    }
}

extension Database {
    /// The `Object` attached to this connection for `subject` and `variant`; `make` builds it the
    /// first time. Attachments live as long as the connection.
    package func attachment<Object: AnyObject>(
        _ type: Object.Type, for subject: Any.Type, variant: Int = 0, make: () throws -> Object
    ) rethrows -> Object {
        try attachments.object(type, for: subject, variant: variant, make: make)
    }
}
