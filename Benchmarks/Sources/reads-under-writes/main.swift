import Foundation
import Synchronization
import TypedDefaults

// Reads of values that hold references (a `Codable` struct with a long `String`, a `URL`, a
// long `String`) through class properties while other threads replace them. A release build's
// read must retain what it copied before the suite's lock is given back, or a writer frees the
// value under it: without that, this crashed or hung within a second. Release only: a debug
// build moves no retain.
//
// Usage: reads-under-writes SECONDS   (exit 0 when every read was a value some write stored)

struct Layout: Codable, Equatable, DefaultsValueConvertible {
    var width: Int
    var title: String
}

/// Values made at run time, so their strings have storage that a write's release frees; each
/// tells by its number what the rest of it must be.
@inline(never) func makeTitle(_ number: Int) -> String {
    String(repeating: Character(Unicode.Scalar(UInt8(97 + number % 26))), count: 40 + number % 7)
}
@inline(never) func makeMotto(_ number: Int) -> String { "motto \(number) " + makeTitle(number) }
@inline(never) func makeHomepage(_ number: Int) -> URL {
    URL(string: "https://example.com/\(makeTitle(number))/\(number)") ?? URL(fileURLWithPath: "/")
}

// @unchecked Sendable is sound: each wrapper is assigned once, in `init`, before any thread
// starts; reading or writing a property after only reads the wrapper's storage (the wrapper's
// static subscript takes its handle and goes to the store, which is thread-safe).
final class Settings: @unchecked Sendable {
    @UserDefault var layout: Layout
    @UserDefault var homepage: URL
    @UserDefault var motto: String

    init(store: DefaultsStore) {
        _layout = UserDefault(wrappedValue: Layout(width: 0, title: makeTitle(0)), "layout", store: store)
        _homepage = UserDefault(wrappedValue: makeHomepage(0), "homepage", store: store)
        _motto = UserDefault(wrappedValue: makeMotto(0), "motto", store: store)
    }
}

/// What the threads share: when to stop, which are still running, and the wrong reads.
final class Run: Sendable {
    let settings = Settings(store: DefaultsStore.inMemory())
    let stop = Atomic<Bool>(false)
    let running = DispatchGroup()
    let rounds = Atomic<Int>(0)
    let wrong = Mutex<[String]>([])

    func check(_ isRight: Bool, _ what: @autoclosure () -> String) {
        guard !isRight else { return }
        wrong.withLock { if $0.count < 10 { $0.append(what()) } }
    }

    /// Replaces the layout on every turn, and the homepage and motto on every eighth.
    func write(from first: Int) {
        var number = first
        while !stop.load(ordering: .relaxed) {
            settings.layout = Layout(width: number, title: makeTitle(number))
            if number % 8 < 2 {
                settings.homepage = makeHomepage(number)
                settings.motto = makeMotto(number)
            }
            number += 2
        }
    }

    /// Reads the layout on every turn, checked by its length and first letter, so that the
    /// reads come fast; the homepage and motto, checked whole, on every sixty-fourth.
    func read() {
        var count = 0
        while !stop.load(ordering: .relaxed) {
            let layout = settings.layout
            let title = layout.title.utf8
            check(
                title.count == 40 + layout.width % 7 && title.first == UInt8(97 + layout.width % 26),
                "layout \(layout)")
            if count % 64 == 0 {
                let homepage = settings.homepage
                check(homepage == makeHomepage(Int(homepage.lastPathComponent) ?? -1), "homepage \(homepage)")
                let motto = settings.motto
                let number = motto.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
                check(motto == makeMotto(number), "motto \(motto)")
            }
            count += 1
        }
        rounds.add(count, ordering: .relaxed)
    }

    /// Two writers and three readers for `seconds`; whether every read was right and every
    /// thread ended.
    func succeeds(for seconds: Double) -> Bool {
        let bodies: [@Sendable () -> Void] =
            [{ self.write(from: 0) }, { self.write(from: 1) }] + Array(repeating: { self.read() }, count: 3)
        for body in bodies {
            running.enter()
            Thread {
                body()
                self.running.leave()
            }.start()
        }
        Thread.sleep(forTimeInterval: seconds)
        stop.store(true, ordering: .relaxed)
        // Each thread ends within a turn of its loop; one that has not in 10 s is stuck.
        guard running.wait(timeout: .now() + 10) == .success else {
            print("reads-under-writes: a thread still running 10 s after the stop")
            return false
        }
        let found = wrong.withLock { $0 }
        print("reads-under-writes: \(rounds.load(ordering: .relaxed)) rounds of reads, \(found.count) wrong")
        for line in found { print("  wrong: \(line)") }
        return found.isEmpty
    }
}

guard CommandLine.arguments.count == 2, let seconds = Double(CommandLine.arguments[1]), seconds > 0 else {
    FileHandle.standardError.write(Data("usage: reads-under-writes SECONDS\n".utf8))
    exit(2)
}
exit(Run().succeeds(for: seconds) ? 0 : 1)
