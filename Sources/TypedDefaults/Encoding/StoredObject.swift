import Foundation

/// A property-list object (`String`, a number, `Bool`, `Data`, `Date`, or arrays and
/// `String`-keyed dictionaries of these) as the suite holds it, untyped, boxed so that it may
/// cross threads. ``DefaultsStoredValue`` is the same value, typed, for code outside the engine.
///
/// The object is held in a box: the engine copies a stored object several times on every
/// write (into the slot, the pending change, a change for observers), and copying an `Any`
/// goes through its type's value witnesses, some 100 instructions each time, an optional one
/// more; copying the box is a retain.
// @unchecked Sendable is sound: a box changes only through `replaceUniquelyHeld(with:)`, when
// the one reference to it is the one being changed, so no other copy, on any thread, can see
// it change; and the objects are immutable values (Swift strings, numbers, Data, Date, arrays
// and dictionaries of them) or the immutable Foundation objects that a property list parser
// returns; nothing holds a mutable reference to them.
package struct StoredObject: @unchecked Sendable {
    private final class Box {
        /// Unchecked: it changes only while the one reference to the box is being changed, so
        /// no two accesses can overlap; the dynamic check cost a tenth of a write.
        @exclusivity(unchecked) var object: Any

        init(_ object: Any) {
            self.object = object
        }
    }

    private var box: Box

    var object: Any { box.object }

    init(_ object: Any) {
        box = Box(object)
    }

    /// Holds `object` from now on, in the same box, when nothing else holds the box: a write
    /// over a value no one else has a copy of allocates nothing. Whether it did.
    mutating func replaceUniquelyHeld(with object: Any) -> Bool {
        guard isKnownUniquelyReferenced(&box) else { return false }
        box.object = object
        return true
    }

    /// Whether two optional stored objects are both absent or hold the same value.
    static func same(_ first: StoredObject?, _ second: StoredObject?) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case (let first?, let second?): same(first.object, second.object)
        default: false
        }
    }

    /// Whether two stored objects hold the same value, compared structurally so that an `Int`
    /// written here equals the `NSNumber` parsed back from the file. Exactly: strings scalar
    /// for scalar (Swift's `==` takes `"caf\u{E9}"` for `"cafe\u{301}"`, and a write of one over
    /// the other would be dropped), reals bit for bit (`-0.0` is not `0.0`).
    static func same(_ first: Any, _ second: Any) -> Bool {
        switch (first, second) {
        case (let first as String, let second as String):
            return first.utf8.elementsEqual(second.utf8)
        case (let first as Data, let second as Data):
            return first == second
        case (let first as Date, let second as Date):
            return first == second
        default:
            break
        }
        if let first = StoredObject.number(first), let second = StoredObject.number(second) {
            return sameNumber(first, second)
        }
        if let first = StoredObject.array(first), let second = StoredObject.array(second) {
            return first.count == second.count && zip(first, second).allSatisfy(same)
        }
        if let first = StoredObject.dictionary(first), let second = StoredObject.dictionary(second) {
            return first.count == second.count
                && first.allSatisfy { key, value in
                    guard let index = second.index(forKey: key), second[index].key.utf8.elementsEqual(key.utf8) else {
                        return false
                    }
                    return same(value, second[index].value)
                }
        }
        if first is StoredObject.ExactDictionary || second is StoredObject.ExactDictionary,
            let first = StoredObject.exactEntries(first), let second = StoredObject.exactEntries(second)
        {
            return first.count == second.count
                && first.allSatisfy { key, value in second[key].map { same(value, $0) } ?? false }
        }
        return false
    }

    private static func sameNumber(_ first: StoredObject.Number, _ second: StoredObject.Number) -> Bool {
        switch (first, second) {
        case (.bool(let a), .bool(let b)): a == b
        case (.signed(let a), .signed(let b)): a == b
        case (.unsigned(let a), .unsigned(let b)): a == b
        case (.signed(let a), .unsigned(let b)), (.unsigned(let b), .signed(let a)): a >= 0 && UInt64(a) == b
        case (.floating(let a), .floating(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        default: false
        }
    }
}
