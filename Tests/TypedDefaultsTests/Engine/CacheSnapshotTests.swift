import Foundation
import Testing

@testable import TypedDefaults

/// The lock-free copy of a slot's cache, driven directly: what `StressTests` races, step by
/// step. (On Apple platforms there is no copy: every read takes the lock.)
@Suite struct CacheSnapshotTests {
    #if !canImport(Darwin)
        @Test func aStoredValueReadsBackAsItsOwnTypeOnly() throws {
            let snapshot = CacheSnapshot()
            let date = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
            snapshot.store(CacheSnapshot.words(of: date), of: ObjectIdentifier(Date.self))
            guard case .value(let read)? = snapshot.read(as: Date.self, identifiedBy: ObjectIdentifier(Date.self))
            else {
                Issue.record("no value read")
                return
            }
            #expect(read == date)
            // The same bytes are no Double: another type takes the lock.
            #expect(snapshot.read(as: Double.self, identifiedBy: ObjectIdentifier(Double.self)) == nil)
        }

        @Test func nothingStoredReadsAsSuchForEveryType() {
            let snapshot = CacheSnapshot()
            snapshot.storeNothingStored()
            guard case .nothingStored? = snapshot.read(as: String.self, identifiedBy: ObjectIdentifier(String.self)),
                case .nothingStored? = snapshot.read(as: Int?.self, identifiedBy: ObjectIdentifier(Int?.self))
            else {
                Issue.record("nothing stored was not read as such")
                return
            }
        }

        @Test func aClearedCopyOrOneBeingChangedSendsTheReadToTheLock() {
            let snapshot = CacheSnapshot()
            #expect(
                snapshot.read(as: Int.self, identifiedBy: ObjectIdentifier(Int.self)) == nil, "a new copy holds nothing"
            )
            snapshot.store(CacheSnapshot.words(of: 42), of: ObjectIdentifier(Int.self))
            // A writer in the middle of a change leaves the sequence odd.
            let even = snapshot.sequence.load(ordering: .relaxed)
            snapshot.sequence.store(even + 1, ordering: .relaxed)
            #expect(snapshot.read(as: Int.self, identifiedBy: ObjectIdentifier(Int.self)) == nil)
            snapshot.sequence.store(even + 2, ordering: .relaxed)
            #expect(snapshot.read(as: Int.self, identifiedBy: ObjectIdentifier(Int.self)) != nil)
            snapshot.clear()
            #expect(snapshot.read(as: Int.self, identifiedBy: ObjectIdentifier(Int.self)) == nil)
        }

        /// A written value that fits in the copy is cached as its bytes, with no box; a read
        /// under the lock (the copy being changed, or `load()`) answers from those bytes.
        @Test func aSmallValueIsCachedWithoutABox() throws {
            let slot = KeySlot(key: "k")
            let date = Date(timeIntervalSinceReferenceDate: -1.5)
            slot.cache(CachedDecode(date))
            #expect(slot.decoded == nil)
            #expect(slot.cachedValue(as: Date.self) == date)
            #expect(try slot.cachedResult(as: Date.self)?.get() == date)
            #expect(slot.cachedValue(as: Double.self) == nil, "the bytes are a Date's only")
            slot.cache(CachedDecode("a short one"))
            #expect(slot.decoded == nil, "at most 15 UTF-8 bytes: the string is its two words")
            #expect(slot.cachedValue(as: String.self) == "a short one")
            #expect(slot.cachedValue(as: Int.self) == nil)
            let long = String(repeating: "long ", count: 8)
            slot.cache(CachedDecode(long))
            #expect(slot.decoded != nil, "a string with storage is boxed")
            #expect(slot.cachedValue(as: String.self) == long)
            slot.cache(Result<Int, DefaultsError>.failure(.missingValue(key: "k")))
            #expect(slot.cachedValue(as: Int.self) == nil)
            #expect(throws: DefaultsError.self) { try slot.cachedResult(as: Int.self)?.get() }
            slot.clearCache()
            #expect(slot.cachedResult(as: Int.self) == nil)
        }

        @Test func onlySmallTrivialValuesAndShortStringsAreCopied() {
            #expect(CacheSnapshot.holdsEveryValue(of: Bool.self))
            #expect(CacheSnapshot.holdsEveryValue(of: UUID.self))
            #expect(CacheSnapshot.holdsEveryValue(of: Int?.self))
            #expect(!CacheSnapshot.holdsEveryValue(of: String.self), "a long one holds a reference")
            #expect(CacheSnapshot.holds(String.self, identifiedBy: ObjectIdentifier(String.self)))
            #expect(!CacheSnapshot.holds(String?.self, identifiedBy: ObjectIdentifier(String?.self)))
            #expect(!CacheSnapshot.holds(UUID?.self, identifiedBy: ObjectIdentifier(UUID?.self)), "17 bytes")
            #expect(!CacheSnapshot.holds([Int].self, identifiedBy: ObjectIdentifier([Int].self)))
        }

        /// A string is copied without a retain only when its two words are all of it: the
        /// standard library's short form, whatever made the string (a literal, a decode, an
        /// append), and never one with storage, which a copy must count.
        @Test func onlyAStringWithoutStorageIsCopied() {
            #expect(CacheSnapshot.stringLayoutIsKnown)
            var built = "ab"
            built += "cd"
            let short = [
                "", "a", "ccccccccccccccc", "é—💾", built,
                String(decoding: Array("fifteen bytes!!".utf8), as: UTF8.self),
            ]
            for string in short {
                guard let words = CacheSnapshot.words(of: string) else {
                    Issue.record("\(string.debugDescription) was not copied")
                    continue
                }
                #expect(CacheSnapshot.value(of: words, as: String.self) == string)
            }
            let long = [
                "sixteen bytes!!!", String(repeating: "x", count: 16), built + String(repeating: built, count: 9),
            ]
            for string in long {
                #expect(CacheSnapshot.words(of: string) == nil, "\(string.debugDescription) has storage")
            }
        }

        /// A short string read from the copy is a string of its own: it outlives the copy's
        /// change, and the next value's.
        @Test func aShortStringReadOutlivesTheCopy() {
            let snapshot = CacheSnapshot()
            let identifier = ObjectIdentifier(String.self)
            snapshot.store(
                CacheSnapshot.words(of: String(decoding: Array("settings".utf8), as: UTF8.self)), of: identifier)
            guard case .value(let read)? = snapshot.read(as: String.self, identifiedBy: identifier) else {
                Issue.record("no value read")
                return
            }
            snapshot.store(CacheSnapshot.words(of: "other"), of: identifier)
            snapshot.clear()
            #expect(read == "settings")
            #expect(read.utf8.count == 8)
        }
    #endif
}
