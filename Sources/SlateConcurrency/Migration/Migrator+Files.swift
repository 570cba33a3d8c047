import Foundation
import SlateCore

extension Migrator {
    /// Registers one SQL migration per `.sql` file of `directory`, in the numeric order of the
    /// number each file name starts with: `001_create.sql`, `002_add_score.sql`, `10_index.sql`.
    ///
    /// Each migration's identifier is its file name without the extension (`001_create`). Files
    /// with other extensions are ignored. Every file is read before any is registered, so a
    /// failure registers nothing.
    ///
    /// - Returns: The identifiers registered, in order.
    /// - Throws: ``DatabaseError`` with ``ResultCode/cantOpen`` when the directory or a file cannot
    ///   be read, and with ``ResultCode/misuse`` when a `.sql` file name does not start with a
    ///   number or two files share a number.
    @discardableResult
    public mutating func registerMigrations(
        inDirectory directory: URL,
        foreignKeyChecks: ForeignKeyChecks = .deferred
    ) throws -> [String] {
        let urls: [URL]
        do {
            urls = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            throw DatabaseError(
                resultCode: .cantOpen,
                message: "cannot list the migrations directory \(directory.path): \(error.localizedDescription)")
        }

        var files: [(number: Int, identifier: String, url: URL)] = []
        for url in urls where url.pathExtension.lowercased() == "sql" {
            let identifier = url.deletingPathExtension().lastPathComponent
            let digits = identifier.prefix { $0 >= "0" && $0 <= "9" }
            guard !digits.isEmpty, let number = Int(digits) else {
                throw DatabaseError(
                    resultCode: .misuse,
                    message: "the migration file \(url.lastPathComponent) in \(directory.path) does not start"
                        + " with a number; name migration files like 001_create.sql")
            }
            files.append((number, identifier, url))
        }
        files.sort { $0.number < $1.number }
        for (previous, next) in zip(files, files.dropFirst()) where previous.number == next.number {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the migration files \(previous.url.lastPathComponent) and \(next.url.lastPathComponent)"
                    + " in \(directory.path) share the number \(next.number)")
        }

        var scripts: [(identifier: String, sql: String)] = []
        for file in files {
            do {
                scripts.append((file.identifier, try String(contentsOf: file.url, encoding: .utf8)))
            } catch {
                throw DatabaseError(
                    resultCode: .cantOpen,
                    message: "cannot read the migration file \(file.url.path): \(error.localizedDescription)")
            }
        }
        for script in scripts {
            registerMigration(script.identifier, foreignKeyChecks: foreignKeyChecks, sql: script.sql)
        }
        return scripts.map(\.identifier)
    }
}
