import Foundation
import SlateCore

/// One connection and the serial dispatch queue that owns it.
///
/// ``DatabaseQueue`` has one; ``DatabasePool`` has one for its writer and one per reader.
final class SerializedConnection: @unchecked Sendable {
    // @unchecked Sendable: `database` is not Sendable, but it is only used inside work items of
    // `queue`, a serial queue, so two threads never use it at once, and the queue's work items
    // order every use after the previous one. `Database` values handed to closures never escape
    // them (the closures' results must be Sendable, and `Database` is not).
    let queue: DispatchQueue
    private let database: Database

    /// Wraps `database`, which must not be used any more except through this object.
    init(database: Database, label: String, ownerKey: DispatchSpecificKey<Void>) {
        self.database = database
        self.queue = DispatchQueue(label: label)
        queue.setSpecific(key: ownerKey, value: ())
    }

    /// Runs `body` on the queue and waits for it.
    func sync<Value>(_ body: (Database) throws -> Value) rethrows -> Value {
        try queue.sync { try body(database) }
    }

    /// Runs `body` on the queue without waiting.
    func async(_ body: @escaping @Sendable (Database) -> Void) {
        queue.async { body(self.database) }
    }
}

extension DispatchSpecificKey where T == Void {
    /// Throws a ``ResultCode/misuse`` error when called from a closure running on one of the
    /// queues tagged with this key: waiting there for the same queues would deadlock.
    func checkNotReentrant(_ owner: String) throws {
        guard DispatchQueue.getSpecific(key: self) == nil else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(owner) is not reentrant: a closure it runs cannot wait for it again;"
                    + " use the Database the closure receives instead")
        }
    }
}
