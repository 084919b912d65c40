import Foundation
import Testing
import TypedDefaults

/// A secure-coding class holding strings, decoded as Apple documents
/// (`decodeObject(of: [NSArray.self, NSString.self], forKey:)`): the crafted archives' `Tagged`.
final class Tagged: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { true }
    let tags: [String]
    init(tags: [String]) { self.tags = tags }
    func encode(with coder: NSCoder) { coder.encode(tags as NSArray, forKey: "tags") }
    init?(coder: NSCoder) {
        guard let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String] else {
            return nil
        }
        self.tags = tags
    }
}

/// A secure-coding class holding a dictionary of strings.
final class Labels: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { true }
    let labels: [String: String]
    init(labels: [String: String]) { self.labels = labels }
    func encode(with coder: NSCoder) { coder.encode(labels as NSDictionary, forKey: "labels") }
    init?(coder: NSCoder) {
        let object = coder.decodeObject(of: [NSDictionary.self, NSString.self], forKey: "labels")
        guard let labels = object as? [String: String] else { return nil }
        self.labels = labels
    }
}

/// Every crafted keyed archive of the known attacks (the first 33 of `variants` below), and a
/// few more, each read in a child process (this test binary again): corelibs'
/// `NSKeyedUnarchiver` killed the reader on 15 of its 33, and on 6 of the 8 added here. Each
/// reads as the default, reported, its bytes left as they were (but the two well-formed ones).
@Suite(.enabled(if: isLinux)) struct CraftedArchiveTests {
    /// What the child prints for each variant: the reason the archive check gives, or, for an
    /// archive of a well-formed shape, corelibs' error once the class's `init(coder:)` returns
    /// `nil` (those never crashed), or the value read.
    static let expected: [String: String] = [
        "p-nsstring-int": "NS.string is integer 42, not a string",
        "p-nsstring-data": "NS.string is Data (1 bytes), not a string",
        "p-nsstring-missing": "NS.string is missing, not a string",
        "p-nsmutablestring-int": "NS.string is integer 42, not a string",
        "p-uid-out-of-range": "object 1 refers to an object beyond the 4 there are",
        "p-uid-self": "object 1 contains itself",
        "p-uid-null": "Class Palette failed to decode",
        "p-class-out-of-range": "object 2 has a $class that refers to no object",
        "p-class-is-string": "object 2 is not a class record",
        "p-classes-not-array": "object 4 is not a class record",
        "p-name-is-int": "Class Palette failed to decode",
        "p-name-is-uid-to-int": "Class Palette failed to decode",
        "p-name-is-uid-to-array": "Class Palette failed to decode",
        "p-name-is-uid-to-dict": "Class Palette failed to decode",
        "p-root-class-uid-string": "value: warm",
        "p-no-version": "$version is not 100000",
        "p-objects-root-not-first": "$objects is not an array that starts with $null",
        "p-top-extra": "$top.x refers to no object",
        "p-archiver-other": "$archiver is not NSKeyedArchiver",
        "p-uid-huge": "object 1 refers to an object beyond the 4 there are",
        "t-array-cycle": "object 2 contains itself",
        "t-array-deep": "references nest more than 100 objects deep",
        "t-objects-not-array": "NS.objects is integer 5, not an array of references",
        "t-objects-raw-string": "NS.objects is Array (1 elements), not an array of references",
        "t-objects-uid-out": "NS.objects is Array (1 elements), not an array of references",
        "t-dict-mismatch": "NS.keys and NS.objects differ in count",
        "t-string-int": "object 5: NS.string is integer 1, not a string",
        "p-name-is-nsarray": "Class Palette failed to decode",
        "p-name-is-nsdictionary": "Class Palette failed to decode",
        "p-name-is-palette": "Class Palette failed to decode",
        "u-relative-nsarray": "NS.relative is a reference to object 2 (NSArray), not a reference to a string",
        "u-base-self": "object 1 contains itself",
        "u-relative-nsstring-int": "NS.string is integer 1, not a string",
        "p-name-is-nslocale": "NSLocale is a Foundation class whose archived form is not checked here",
        "p-name-is-dotted-nsstring": "NS.string is integer 42, not a string",
        "p-name-is-insecure-class": "TypedDefaultsTests.Legacy does not support secure coding",
        "p-name-is-unknown-class": "no class of this program is named \"Nowhere.Thing\"",
        "l-dict-null-object": "holds object 0, which can fail to decode",
        "l-dict-unresolvable-url": "holds object 6, which can fail to decode",
        "l-dict-palette": "holds object 6, which can fail to decode",
        "l-dict-strings": "value: [\"k\": \"v\"]",
        // SwiftyUserDefaults' [URL], an archive of an array of NSURLs: read from the archive's
        // objects, never by the unarchiver.
        "u-relative-unmakeable": "object 1, an NSURL, does not make a URL",
        "w-url-unmakeable": "expected Array<URL>",
        "w-diamond": "expected Array<URL>",
        "w-nested": "expected Array<URL>",
        "w-url-strings": "value: [https://swift.org/a, file:///tmp/b]",
    ]

    @Test(.tags(.childProcess), .startsProcesses, arguments: expected.keys.sorted())
    func aCraftedArchiveNeverCrashesTheReader(variant: String) async throws {
        let folder = try NeverCrashesOrHangsTests.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("crafted.plist")
        _ = try await Python.run(Self.variants, variant, file.path)
        let before = try Data(contentsOf: file)
        let child = try await NeverCrashesOrHangsTests.runThisBinary(
            filter: "readCraftedArchiveInAChild", killAfter: 60,
            environment: ["XDG_CONFIG_HOME": folder.path, "TYPEDDEFAULTS_ARCHIVE_VARIANT": variant])
        #expect(!child.crashed && !child.timedOut, "status \(child.status): \(child.output.suffix(400))")
        let value = variant.hasSuffix("-strings") || variant == "p-root-class-uid-string"
        #expect(child.output.contains(value ? "reports: 0" : "reports: 1"), "\(child.output.suffix(400))")
        #expect(value || child.output.contains("value: default"), "\(child.output.suffix(400))")
        #expect(child.output.contains(Self.expected[variant] ?? "?"), "\(child.output.suffix(400))")
        #expect(try Data(contentsOf: file) == before, "the stored bytes changed")
    }

    /// Reads the key the variant's archive is stored under, and prints the value and reports.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_CHILD"] != nil))
    func readCraftedArchiveInAChild() throws {
        let variant = try #require(ProcessInfo.processInfo.environment["TYPEDDEFAULTS_ARCHIVE_VARIANT"])
        let store = try DefaultsStore(suiteName: "crafted")
        let (value, reported) = ReportedErrors.during { () -> String in
            switch variant.first {
            case "t":
                let tagged = UserDefault(wrappedValue: Tagged(tags: ["default"]), "tagged", store: store).wrappedValue
                return tagged.tags == ["default"] ? "default" : "\(tagged.tags)"
            case "l":
                let labels = UserDefault(wrappedValue: Labels(labels: [:]), "labels", store: store).wrappedValue.labels
                return labels.isEmpty ? "default" : "\(labels)"
            case "w":
                let fallback = [URL(string: "https://default.example")!]
                let urls = UserDefault(wrappedValue: fallback, "urls", store: store).wrappedValue
                return urls == fallback ? "default" : "\(urls)"
            case "u":
                let homepage = UserDefault(
                    wrappedValue: URL(string: "https://default.example")!, "homepage", store: store
                ).wrappedValue
                return homepage.absoluteString == "https://default.example" ? "default" : "\(homepage)"
            default:
                return UserDefault(wrappedValue: Palette(name: "default"), "palette", store: store).wrappedValue.name
            }
        }
        print("value: \(value)")
        print("reports: \(reported.count)")
        for error in reported { print("reported: \(error)") }
    }

    /// Writes the variant named by its first argument, as a suite file at its last: the archive
    /// under `palette` (a `Palette`), `tagged` (a `Tagged`), `labels` (a `Labels`) or `homepage`
    /// (a `URL`). The archive's root is always of the expected class.
    static let variants = #"""
        import os, plistlib, sys
        from plistlib import UID

        variant, path = sys.argv[1], sys.argv[-1]
        M = "TypedDefaultsTests"
        def record(name, *chain):
            return {"$classes": [name, *chain, "NSObject"], "$classname": name}
        P, T, L = record(f"{M}.Palette"), record(f"{M}.Tagged"), record(f"{M}.Labels")
        S, MS = record("NSString"), record("NSMutableString", "NSString")
        A, D, U = record("NSArray"), record("NSDictionary"), record("NSURL")

        def archive(objects, root=1, **extra):
            a = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": UID(root)}, "$objects": objects}
            a.update(extra)
            return a

        def palette(name_object, *more):
            return ("palette", archive(["$null", {"name": UID(2), "$class": UID(3)}, name_object, P, *more]))

        def tagged(tags_object, *more):
            return ("tagged", archive(["$null", {"tags": UID(2), "$class": UID(4)}, tags_object, A, T, *more]))

        def labels(*objects):
            return ("labels", archive(["$null", {"labels": UID(2), "$class": UID(3)}, *objects]))

        def deep(n):
            objects = ["$null", {"tags": UID(4), "$class": UID(3)}, A, T]
            for i in range(n):
                objects.append({"NS.objects": [UID(4 + i + 1)] if i + 1 < n else [], "$class": UID(2)})
            return ("tagged", archive(objects))

        def url(relative, *more, base=UID(0)):
            return ("homepage", archive(["$null", {"NS.base": base, "NS.relative": UID(2), "$class": UID(3)}, relative, U, *more]))

        def urls(*objects):
            return ("urls", archive(["$null", {"NS.objects": [UID(3)], "$class": UID(2)}, A, *objects]))

        def diamond(n):
            objects = ["$null", {"NS.objects": [UID(3), UID(3)], "$class": UID(2)}, A]
            for i in range(n):
                step = 3 + i + 1
                objects.append({"NS.objects": [UID(step), UID(step)] if i + 1 < n else [], "$class": UID(2)})
            return ("urls", archive(objects))

        V = {
            # The known attacks' variants, each as its script made it.
            "p-nsstring-int": lambda: palette({"NS.string": 42, "$class": UID(4)}, S),
            "p-nsstring-data": lambda: palette({"NS.string": b"x", "$class": UID(4)}, S),
            "p-nsstring-missing": lambda: palette({"$class": UID(4)}, S),
            "p-nsmutablestring-int": lambda: palette({"NS.string": 42, "$class": UID(4)}, MS),
            "p-uid-out-of-range": lambda: ("palette", archive(["$null", {"name": UID(99), "$class": UID(3)}, "warm", P])),
            "p-uid-self": lambda: ("palette", archive(["$null", {"name": UID(1), "$class": UID(3)}, "warm", P])),
            "p-uid-null": lambda: ("palette", archive(["$null", {"name": UID(0), "$class": UID(3)}, "warm", P])),
            "p-class-out-of-range": lambda: ("palette", archive(["$null", {"name": UID(2), "$class": UID(3)}, {"NS.string": "x", "$class": UID(77)}, P])),
            "p-class-is-string": lambda: ("palette", archive(["$null", {"name": UID(2), "$class": UID(3)}, {"NS.string": "x", "$class": UID(2)}, P])),
            "p-classes-not-array": lambda: palette({"NS.string": "x", "$class": UID(4)}, {"$classname": "NSString", "$classes": "NSString"}),
            "p-name-is-int": lambda: ("palette", archive(["$null", {"name": 5, "$class": UID(3)}, "warm", P])),
            "p-name-is-uid-to-int": lambda: palette(5),
            "p-name-is-uid-to-array": lambda: palette([1, 2]),
            "p-name-is-uid-to-dict": lambda: palette({"a": 1}),
            "p-root-class-uid-string": lambda: palette("warm"),
            "p-no-version": lambda: ("palette", {"$archiver": "NSKeyedArchiver", "$top": {"root": UID(1)}, "$objects": ["$null", {"name": UID(2), "$class": UID(3)}, "warm", P]}),
            "p-objects-root-not-first": lambda: ("palette", archive([{"name": UID(2), "$class": UID(3)}, "$null", "warm", P], root=0)),
            "p-top-extra": lambda: ("palette", {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": UID(1), "x": UID(50)}, "$objects": ["$null", {"name": UID(2), "$class": UID(3)}, "warm", P]}),
            "p-archiver-other": lambda: ("palette", archive(["$null", {"name": UID(2), "$class": UID(3)}, "warm", P], **{"$archiver": "Other"})),
            "p-uid-huge": lambda: ("palette", archive(["$null", {"name": UID(2**63 + 5), "$class": UID(3)}, "warm", P])),
            "t-array-cycle": lambda: ("tagged", archive(["$null", {"tags": UID(2), "$class": UID(4)}, {"NS.objects": [UID(2)], "$class": UID(3)}, A, T])),
            "t-array-deep": lambda: deep(200_000),
            "t-objects-not-array": lambda: tagged({"NS.objects": 5, "$class": UID(3)}),
            "t-objects-raw-string": lambda: tagged({"NS.objects": ["raw"], "$class": UID(3)}),
            "t-objects-uid-out": lambda: tagged({"NS.objects": [UID(1000)], "$class": UID(3)}),
            "t-dict-mismatch": lambda: ("tagged", archive(["$null", {"tags": UID(2), "$class": UID(4)}, {"NS.keys": [UID(5)], "NS.objects": [], "$class": UID(3)}, D, T, "k"])),
            "t-string-int": lambda: tagged({"NS.objects": [UID(5)], "$class": UID(3)}, {"NS.string": 1, "$class": UID(6)}, S),
            "p-name-is-nsarray": lambda: palette({"NS.objects": [], "$class": UID(4)}, A),
            "p-name-is-nsdictionary": lambda: palette({"NS.keys": [], "NS.objects": [], "$class": UID(4)}, D),
            "p-name-is-palette": lambda: palette({"name": UID(4), "$class": UID(3)}, "inner"),
            "u-relative-nsarray": lambda: url({"NS.objects": [], "$class": UID(4)}, A),
            "u-base-self": lambda: url("https://x.example", base=UID(1)),
            "u-relative-nsstring-int": lambda: url({"NS.string": 1, "$class": UID(4)}, S),
            # More: classes corelibs must not construct, and dictionaries whose objects can fail.
            "p-name-is-nslocale": lambda: palette({"NS.identifier": UID(5), "$class": UID(4)}, record("NSLocale"), "en"),
            "p-name-is-dotted-nsstring": lambda: palette({"NS.string": 42, "$class": UID(4)}, record("Foundation.NSString")),
            "p-name-is-insecure-class": lambda: palette({"$class": UID(4)}, record(f"{M}.Legacy")),
            "p-name-is-unknown-class": lambda: palette({"$class": UID(4)}, record("Nowhere.Thing")),
            "l-dict-null-object": lambda: labels({"NS.keys": [UID(5)], "NS.objects": [UID(0)], "$class": UID(4)}, L, D, "k"),
            "l-dict-unresolvable-url": lambda: labels({"NS.keys": [UID(5)], "NS.objects": [UID(6)], "$class": UID(4)}, L, D, "k",
                                                      {"NS.base": UID(0), "NS.relative": UID(7), "$class": UID(8)}, "not a url", U),
            "l-dict-palette": lambda: labels({"NS.keys": [UID(5)], "NS.objects": [UID(6)], "$class": UID(4)}, L, D, "k",
                                             {"name": UID(5), "$class": UID(7)}, P),
            "l-dict-strings": lambda: labels({"NS.keys": [UID(5)], "NS.objects": [UID(6)], "$class": UID(4)}, L, D, "k", "v"),
            "u-relative-unmakeable": lambda: url("http://[::1"),
            "w-url-unmakeable": lambda: urls({"NS.base": UID(0), "NS.relative": UID(4), "$class": UID(5)}, "http://[::1", U),
            "w-diamond": lambda: diamond(60),
            "w-nested": lambda: urls({"NS.objects": [UID(0)], "$class": UID(2)}),
            "w-url-strings": lambda: ("urls", archive(["$null", {"NS.objects": [UID(3), UID(6)], "$class": UID(2)}, A,
                                                       {"NS.base": UID(0), "NS.relative": UID(4), "$class": UID(5)}, "https://swift.org/a", U,
                                                       {"NS.base": UID(0), "NS.relative": UID(7), "$class": UID(5)}, "file:///tmp/b"])),
        }
        if variant == "--list":
            print("\n".join(V))
            sys.exit()
        key, data = V[variant]()
        with open(path, "wb") as f:
            f.write(plistlib.dumps({key: plistlib.dumps(data, fmt=plistlib.FMT_BINARY)}, fmt=plistlib.FMT_BINARY))
        """#
}
