#if canImport(SlatePostgres)
    import Foundation
    import SlatePostgresTesting
    import Testing

    /// The test server's clean-up of servers left by killed test processes.
    struct PostgresTestServerTests {
        /// The id of a process that has exited (and been reaped).
        func deadProcessID() throws -> pid_t {
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
            defer { argv.forEach { free($0) } }
            var pid = pid_t()
            guard posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0 else {
                throw PostgresTestServer.ServerError(message: "cannot run /bin/true")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 {
                guard errno == EINTR else { throw PostgresTestServer.ServerError(message: "waitpid failed") }
            }
            return pid
        }

        @Test func removesOnlyTheDirectoriesOfDeadProcesses() throws {
            let parent = FileManager.default.temporaryDirectory.appendingPathComponent(
                "slate-abandoned-\(UUID().uuidString)"
            ).path
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let dead = try deadProcessID()
            let abandoned = parent + "/slate-postgres-\(dead)-42"
            let live = parent + "/slate-postgres-\(getpid())-43"
            let notAServer = parent + "/slate-postgres-command-\(dead)-44.log"
            let other = parent + "/slate-postgres-\(dead)"
            for directory in [abandoned, live, other] {
                try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
            }
            #expect(FileManager.default.createFile(atPath: notAServer, contents: Data()))
            // A stale postmaster.pid (no server runs): pg_ctl stop fails, the directory goes all the same.
            #expect(
                FileManager.default.createFile(
                    atPath: abandoned + "/data/postmaster.pid", contents: Data("\(dead)\n".utf8)))

            let removed = PostgresTestServer.removeAbandonedServers(in: parent)
            #expect(removed == [abandoned])
            #expect(!FileManager.default.fileExists(atPath: abandoned))
            #expect(FileManager.default.fileExists(atPath: live))
            #expect(FileManager.default.fileExists(atPath: notAServer))
            #expect(FileManager.default.fileExists(atPath: other))
        }
    }
#endif
