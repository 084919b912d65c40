import Foundation
import Testing

@testable import TypedDefaults

/// A process trusts what it last wrote to a suite file only while the file holds those very
/// bytes: another program can leave a file of the same size, inode and modification time.
@Suite(.enabled(if: isLinux), .plistFilesOnly("the plist file's identity")) struct FileIdentityTests {
    /// Another program, holding the suite's lock, rewrites the file in place with one integer
    /// changed (same size, same inode) and sets the modification time back to what it was. The
    /// store must still read the other program's value, and its next commit must keep it.
    @Test(.tags(.childProcess), .startsProcesses)
    func anotherWriteThatKeepsSizeInodeAndTimeIsNotLost() async throws {
        let suite = try TestSuite()
        let store = suite.store
        let a = DefaultsKey<Int>("a", default: 0)
        let c = DefaultsKey<Int>("c", default: 0)
        store[a] = 1
        store[c] = 5
        try store.flush()

        let before = try FileManager.default.attributesOfItem(atPath: suite.plistURL.path)
        _ = try await Python.run(Self.patchKeepingSizeInodeAndTime, suite.plistURL.path, "a", "2")
        let after = try FileManager.default.attributesOfItem(atPath: suite.plistURL.path)
        // The other write is indistinguishable by what stat tells of a file.
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.size] as? Int == before[.size] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)

        store[c] = 3
        try store.flush()
        let entries = try await Python.entries(of: suite.plistURL)
        #expect(entries == ["'a' 2", "'c' 3"], "the other program's a=2 must survive this process's commit")
        #expect(store[a] == 2)
    }

    /// Under the suite's lock, sets the integer stored under a key of a binary property list to
    /// another of the same encoded size, in place, and restores the file's times: argv is the
    /// path, the key and the new value (0...255).
    static let patchKeepingSizeInodeAndTime = #"""
        import fcntl, os, struct, sys
        path, key, value = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
        lock = open(path + ".lock", "a")
        fcntl.flock(lock, fcntl.LOCK_EX)
        times = os.stat(path)
        data = bytearray(open(path, "rb").read())
        offset_size, ref_size, count, top, table = struct.unpack(">6xBBQQQ", data[-32:])
        def offset(ref):
            start = table + ref * offset_size
            return int.from_bytes(data[start:start + offset_size], "big")
        def refs(start, n):
            return [int.from_bytes(data[start + i * ref_size:start + (i + 1) * ref_size], "big") for i in range(n)]
        root = offset(top)
        marker = data[root]
        assert marker >> 4 == 0xD and marker & 0xF < 0xF, "a small dictionary at the top"
        n = marker & 0xF
        keys, values = refs(root + 1, n), refs(root + 1 + n * ref_size, n)
        for k, v in zip(keys, values):
            at = offset(k)
            if data[at] == 0x50 | len(key) and data[at + 1:at + 1 + len(key)] == key:
                at = offset(v)
                assert data[at] == 0x10, "a one-byte integer"
                data[at + 1] = value
        with open(path, "r+b") as f:
            f.write(data)
        os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
        """#
}
