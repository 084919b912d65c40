import Foundation
import TypedDefaultsStorage

/// A keyed archive read with the engine's bounded reader, and checked whole before corelibs'
/// `NSKeyedUnarchiver` is given it.
///
/// corelibs kills the process on many archives that merely look right: it force-casts the
/// fields of the Foundation objects it decodes (`NS.string` of an `NSString`), force-unwraps a
/// `$class` that refers to no class, recurses without end into an object that contains itself,
/// reads out of bounds when an object of an `NSDictionary` fails to decode, and calls
/// `fatalError` for an object of a class `decodeObject(of:forKey:)` does not allow. Each such
/// shape is refused here; see ``KeyedArchive/unarchive(_:from:)`` for how the rest is decoded.
struct CheckedArchive {
    /// How many objects deep a chain of references may go. corelibs recurses once a level, with
    /// up to 1.3 KB of stack (measured: 400 levels fit in 512 KiB, 800 do not), so 100 levels
    /// stay far from the end of a secondary thread's stack.
    static let maximumDepth = 100

    /// What corelibs does with an object's fields, by its class.
    enum Kind {
        case string, collection, dictionary, data, date, number, url, uuid, null
        /// A class of the program's own: its `init(coder:)` decodes what it decodes.
        case custom
    }

    /// The Foundation classes whose fields are checked here; no other Foundation class is
    /// decoded, as nothing here knows what each of their initializers force-casts.
    private static let foundationKinds: [ObjectIdentifier: Kind] = {
        let classes: [(AnyClass, Kind)] = [
            (NSString.self, .string), (NSMutableString.self, .string),
            (NSArray.self, .collection), (NSMutableArray.self, .collection),
            (NSSet.self, .collection), (NSMutableSet.self, .collection),
            (NSDictionary.self, .dictionary), (NSMutableDictionary.self, .dictionary),
            (NSData.self, .data), (NSMutableData.self, .data), (NSDate.self, .date),
            (NSNumber.self, .number), (NSURL.self, .url), (NSUUID.self, .uuid), (NSNull.self, .null),
        ]
        return Dictionary(classes.map { (ObjectIdentifier($0.0), $0.1) }) { first, _ in first }
    }()

    private static let foundationModules: Set<Substring> = [
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML",
    ]

    fileprivate let objects: [Any]
    private let root: Int

    /// Reads `data` and checks the archive's frame: `$archiver`, `$version`, `$top` and `$objects`.
    init(_ data: Data) throws(KeyedArchive.Failure) {
        guard
            let parsed = try? PropertyListReader.object(from: data, allowingUIDs: true),
            let archive = StoredObject.dictionary(parsed)
        else { throw .unreadable }
        guard archive["$archiver"] as? String == "NSKeyedArchiver" else {
            throw .malformed("$archiver is not NSKeyedArchiver")
        }
        guard case .signed(100_000)? = archive["$version"].flatMap(StoredObject.number) else {
            throw .malformed("$version is not 100000")
        }
        guard let objects = archive["$objects"] as? [Any], objects.first as? String == "$null" else {
            throw .malformed("$objects is not an array that starts with $null")
        }
        self.objects = objects
        func reference(_ value: Any) -> Int? { Self.reference(value, among: objects.count) }
        guard let top = archive["$top"].flatMap(StoredObject.dictionary), let root = top["root"].flatMap(reference)
        else { throw .malformed("$top holds no root") }
        for (key, value) in top where reference(value) == nil {
            throw .malformed("$top.\(key) refers to no object")
        }
        self.root = root
    }

    /// The class name recorded for the root object, unchecked.
    var rootClassName: String? {
        guard let fields = StoredObject.dictionary(objects[root]), let classIndex = fields["$class"].flatMap(reference)
        else { return nil }
        return StoredObject.dictionary(objects[classIndex])?["$classname"] as? String
    }

    /// Throws unless every object reachable from the root is one corelibs decodes without
    /// crashing, and the root is of `rootClass`.
    func check(rootClass: AnyClass) throws(KeyedArchive.Failure) {
        var walk = Walk(archive: self)
        _ = try walk.visit(root, depth: 1)
        guard case .record(let classIndex, _)? = walk.nodes[root],
            walk.classes[classIndex].map({ ObjectIdentifier($0.type) }) == ObjectIdentifier(rootClass)
        else {
            throw .malformed("the root object is not of class \(String(reflecting: rootClass))")
        }
        for index in walk.nodes.keys.sorted() {
            // corelibs keeps an `NSURL` it cannot make, and stops the process when it is used.
            if case .record(_, .url)? = walk.nodes[index], !walk.alwaysDecodes(index) {
                throw .malformed("object \(index), an NSURL, does not make a URL")
            }
            guard case .record(_, .dictionary)? = walk.nodes[index],
                let fields = StoredObject.dictionary(objects[index])
            else {
                continue
            }
            // corelibs reads keys and objects into two arrays and indexes both by the keys' count:
            // an element that decodes to nothing, or fails, leaves one short (an out-of-bounds read).
            for element in (fields["NS.keys"] as? [Any] ?? []) + (fields["NS.objects"] as? [Any] ?? []) {
                let target = reference(element) ?? 0
                guard !isNull(target), walk.alwaysDecodes(target) else {
                    throw .malformed(
                        "object \(index), an NSDictionary, holds object \(target), which can fail to decode; a "
                            + "dictionary holds only strings, numbers, data, dates, UUIDs, NSNull, URLs that resolve, "
                            + "and collections of these, never nil")
                }
            }
        }
    }

    /// The index a `CF$UID` refers to, or `nil` for anything else or an index beyond `$objects`.
    func reference(_ value: Any) -> Int? { Self.reference(value, among: objects.count) }

    private static func reference(_ value: Any, among count: Int) -> Int? {
        guard let uid = value as? ArchiveUID, uid.value < UInt64(count) else { return nil }
        return Int(uid.value)
    }

    /// Whether corelibs decodes object `index` as `nil`.
    func isNull(_ index: Int) -> Bool { objects[index] as? String == "$null" }

    /// The class corelibs constructs for the class name `name`, and its kind; throws for a name
    /// it cannot resolve and for a class it is not safe to construct from outside data.
    static func resolve(_ name: String) throws(KeyedArchive.Failure) -> (type: AnyClass, kind: Kind) {
        // As corelibs looks a name up; a name of any other form is refused before the lookup.
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard
            (1...2).contains(parts.count), !name.hasPrefix("_Tt"),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber } }),
            let named = (NSKeyedUnarchiver.class(forClassName: name) ?? NSClassFromString(name)) as? NSObject.Type
        else { throw .malformed("no class of this program is named \(String(reflecting: name))") }
        let type: AnyClass = named.classForKeyedUnarchiver()
        guard (type as? NSSecureCoding.Type)?.supportsSecureCoding == true else {
            throw .malformed("\(name) does not support secure coding")
        }
        if let kind = foundationKinds[ObjectIdentifier(type)] { return (type, kind) }
        var ancestor: AnyClass? = type
        while let current = ancestor, ObjectIdentifier(current) != ObjectIdentifier(NSObject.self) {
            let module = String(reflecting: current).split(separator: ".").first ?? ""
            guard !foundationModules.contains(module) else {
                throw .malformed("\(name) is a Foundation class whose archived form is not checked here")
            }
            ancestor = _getSuperclass(current)
        }
        return (type, .custom)
    }
}

/// One walk of an archive's references from the root.
private struct Walk {
    enum Node {
        case visiting
        /// A raw value: corelibs never looks inside it.
        case value
        /// An object of a class: the index of its class record, and its kind.
        case record(classIndex: Int, Kind)
    }
    typealias Kind = CheckedArchive.Kind
    typealias Failure = KeyedArchive.Failure

    let archive: CheckedArchive
    var nodes: [Int: Node] = [:]
    var heights: [Int: Int] = [:]
    var classes: [Int: (type: AnyClass, kind: Kind)] = [:]
    var resolved: [String: (type: AnyClass, kind: Kind)] = [:]
    var decodes: [Int: Bool] = [:]

    private var objects: [Any] { archive.objects }

    init(archive: CheckedArchive) {
        self.archive = archive
    }

    /// Checks object `index`, met `depth` objects from the root, and all it refers to; returns
    /// the height of the references below it, itself counted.
    mutating func visit(_ index: Int, depth: Int) throws(Failure) -> Int {
        if let height = heights[index] {
            guard depth + height - 1 <= CheckedArchive.maximumDepth else { throw tooDeep() }
            return height
        }
        if case .visiting? = nodes[index] { throw .malformed("object \(index) contains itself") }
        guard depth <= CheckedArchive.maximumDepth else { throw tooDeep() }
        nodes[index] = .visiting
        let (node, references) = try examine(index)
        var height = 1
        for child in references {
            height = max(height, try visit(child, depth: depth + 1) + 1)
        }
        nodes[index] = node
        heights[index] = height
        return height
    }

    private func tooDeep() -> Failure {
        .malformed("references nest more than \(CheckedArchive.maximumDepth) objects deep")
    }

    /// What object `index` is, checked, and the objects it refers to.
    private mutating func examine(_ index: Int) throws(Failure) -> (Node, [Int]) {
        let object = objects[index]
        var references: [Int] = []
        guard let fields = StoredObject.dictionary(object), let classReference = fields["$class"] else {
            try collect(object, of: index, into: &references)
            return (.value, references)
        }
        guard let classIndex = archive.reference(classReference) else {
            throw .malformed("object \(index) has a $class that refers to no object")
        }
        let kind = try classKind(at: classIndex)
        try checkFields(fields, of: kind, at: index)
        for (key, value) in fields where key != "$class" { try collect(value, of: index, into: &references) }
        return (.record(classIndex: classIndex, kind), references)
    }

    /// Appends every reference within `value` (at any depth) to `references`.
    private func collect(_ value: Any, of index: Int, into references: inout [Int]) throws(Failure) {
        if value is ArchiveUID {
            guard let target = archive.reference(value) else {
                throw .malformed("object \(index) refers to an object beyond the \(objects.count) there are")
            }
            references.append(target)
        } else if value is StoredObject.ExactDictionary {
            throw .malformed("object \(index) has keys that differ only in their Unicode form")
        } else if let elements = value as? [Any] {
            for element in elements { try collect(element, of: index, into: &references) }
        } else if let entries = value as? [String: Any] {
            for (_, element) in entries { try collect(element, of: index, into: &references) }
        }
    }

    /// The class the record at `classIndex` names: a well-formed record of a class it is safe
    /// to decode.
    private mutating func classKind(at classIndex: Int) throws(Failure) -> Kind {
        if let known = classes[classIndex] { return known.kind }
        guard
            let record = StoredObject.dictionary(objects[classIndex]), let name = record["$classname"] as? String,
            let chain = record["$classes"] as? [Any], chain.allSatisfy({ $0 is String }),
            (record["$classhints"].map { ($0 as? [Any])?.allSatisfy { $0 is String } == true } ?? true)
        else { throw .malformed("object \(classIndex) is not a class record ($classname and $classes strings)") }
        let found: (type: AnyClass, kind: Kind)
        if let known = resolved[name] { found = known } else { found = try CheckedArchive.resolve(name) }
        resolved[name] = found
        classes[classIndex] = found
        return found.kind
    }

    /// Checks the fields that corelibs force-casts or indexes for a Foundation class.
    private func checkFields(_ fields: [String: Any], of kind: Kind, at index: Int) throws(Failure) {
        func require(_ key: String, _ what: String, _ test: (Any) -> Bool) throws(Failure) {
            guard let value = fields[key], test(value) else {
                let found = fields[key].map(describe) ?? "missing"
                throw .malformed("object \(index): \(key) is \(found), not \(what)")
            }
        }
        func references(_ value: Any) -> Bool {
            (value as? [Any])?.allSatisfy { archive.reference($0) != nil } == true
        }
        switch kind {
        case .string: try require("NS.string", "a string") { $0 is String }
        case .collection: try require("NS.objects", "an array of references to objects", references)
        case .dictionary:
            try require("NS.keys", "an array of references to objects", references)
            try require("NS.objects", "an array of references to objects", references)
            guard (fields["NS.keys"] as? [Any])?.count == (fields["NS.objects"] as? [Any])?.count else {
                throw .malformed("object \(index): NS.keys and NS.objects differ in count")
            }
        case .data: try require("NS.data", "data") { $0 is Data }
        case .date:
            try require("NS.time", "a number") {
                switch StoredObject.number($0) {
                case .signed?, .floating?: true
                default: false
                }
            }
        case .number:
            try require("NS.number", "a number") {
                switch StoredObject.number($0) {
                case .signed?, .floating?, .bool?: true
                default: false
                }
            }
        case .uuid: try require("NS.uuidbytes", "16 bytes") { ($0 as? Data)?.count == 16 }
        case .url:
            try require("NS.relative", "a reference to a string") {
                guard let target = archive.reference($0) else { return false }
                return objects[target] is String ? !archive.isNull(target) : recordKind(target) == .string
            }
            if fields["NS.base"] != nil {
                try require("NS.base", "a reference to nothing or an NSURL") {
                    guard let target = archive.reference($0) else { return false }
                    return archive.isNull(target) || recordKind(target) == .url
                }
            }
        case .null, .custom: break
        }
    }

    /// A field's value for a message: a reference says what it refers to.
    private func describe(_ value: Any) -> String {
        guard let uid = value as? ArchiveUID else { return StoredObject.describe(value) }
        guard let target = archive.reference(uid) else { return "a reference to object \(uid.value), beyond $objects" }
        let name = StoredObject.dictionary(objects[target])?["$class"].flatMap(archive.reference)
            .flatMap { StoredObject.dictionary(objects[$0])?["$classname"] as? String }
        return "a reference to object \(target) (\(name ?? StoredObject.describe(objects[target])))"
    }

    /// The kind of object `index` when it is a record of a class resolved by name, unchecked.
    private func recordKind(_ index: Int) -> Kind? {
        guard let fields = StoredObject.dictionary(objects[index]),
            let classIndex = fields["$class"].flatMap(archive.reference),
            let name = StoredObject.dictionary(objects[classIndex])?["$classname"] as? String
        else { return nil }
        return (try? resolved[name] ?? CheckedArchive.resolve(name))?.kind
    }

    /// The URL corelibs decodes from the checked `NSURL` at `index`, or `nil` when it fails:
    /// its `NS.relative` string resolved against its `NS.base`, as `NSURL.init(coder:)` does.
    private func decodedURL(_ index: Int) -> URL? {
        guard let fields = StoredObject.dictionary(objects[index]),
            let relative = fields["NS.relative"].flatMap(archive.reference).flatMap(stringValue)
        else { return nil }
        var base: URL?
        if let target = fields["NS.base"].flatMap(archive.reference), !archive.isNull(target) {
            guard let url = decodedURL(target) else { return nil }
            base = url
        }
        // Both must take it: corelibs' unarchiver makes an `NSURL` (none of "not a url"), and an
        // `NSURL` that `URL` refuses ("http://[::1") stops the process once bridged. Never
        // bridged here.
        guard NSURL(string: relative, relativeTo: base) != nil else { return nil }
        return URL(string: relative, relativeTo: base)
    }

    /// The string object `index` decodes to, when it is a raw string or a checked `NSString`.
    private func stringValue(_ index: Int) -> String? {
        if let string = objects[index] as? String { return string == "$null" ? nil : string }
        guard recordKind(index) == .string else { return nil }
        return StoredObject.dictionary(objects[index])?["NS.string"] as? String
    }

    /// Whether object `index` (visited, so checked and acyclic) can never fail to decode: a raw
    /// value, or a checked Foundation object (an `NSURL` that resolves) whose every element
    /// can never fail either.
    mutating func alwaysDecodes(_ index: Int) -> Bool {
        if let known = decodes[index] { return known }
        var result: Bool
        switch nodes[index] {
        case .value?: result = true
        case .record(_, let kind)?:
            switch kind {
            case .string, .data, .date, .number, .uuid, .null: result = true
            case .url: result = decodedURL(index) != nil
            case .custom: result = false
            case .collection, .dictionary:
                let fields = StoredObject.dictionary(objects[index]) ?? [:]
                let elements = (fields["NS.keys"] as? [Any] ?? []) + (fields["NS.objects"] as? [Any] ?? [])
                result = true
                for element in elements {
                    let target = archive.reference(element) ?? 0
                    if archive.isNull(target) { continue }
                    if !alwaysDecodes(target) { result = false }
                }
            }
        case .visiting?, nil: result = false
        }
        decodes[index] = result
        return result
    }
}

extension CheckedArchive {
    /// The texts of an archive of an array of `NSURL`s (SwiftyUserDefaults' `[URL]`), read from
    /// the archive's objects, never by corelibs' unarchiver, which stops the process on an
    /// `NSURL` it cannot make: each element's `NS.relative`, with no `NS.base`. `nil` for an
    /// archive of any other shape.
    package var urlArrayTexts: [String]? {
        func className(of fields: [String: Any]) -> String? {
            guard let index = fields["$class"].flatMap(reference) else { return nil }
            return StoredObject.dictionary(objects[index])?["$classname"] as? String
        }
        guard let array = StoredObject.dictionary(objects[root]),
            ["NSArray", "NSMutableArray"].contains(className(of: array) ?? ""),
            let elements = array["NS.objects"] as? [Any]
        else { return nil }
        var texts: [String] = []
        for element in elements {
            guard let index = reference(element), let url = StoredObject.dictionary(objects[index]),
                className(of: url) == "NSURL", url["NS.base"].flatMap(reference).map(isNull) == true,
                let relative = url["NS.relative"].flatMap(reference), let text = objects[relative] as? String
            else { return nil }
            texts.append(text)
        }
        return texts
    }
}
