/// The bindings a typed key made in the stores it was used with, so that `store[.key]` finds
/// its slot without hashing the key's name or taking the store's registry lock.
///
/// A binding is told apart by its state's ``SuiteState/serial``, which no other state ever has,
/// so a binding made for a store since released never answers for a new one. Bindings hold no
/// state: a key used with an in-memory store does not keep that store alive, only the emptied
/// slot (see `SuiteState.deinit`).
///
/// Bindings in suites that live as long as the process (every store but an in-memory one) are
/// published once in one of ``fixedCount`` places and kept as long as the key, so a read finds
/// them with ``AtomicWord`` loads and no lock. Others share ``recent``, a few bindings under a
/// lock, the most recently made first: a program that uses one key with many in-memory stores in
/// turn (a test each) remakes a binding now and then, and keeps little of the stores it is done
/// with.
// @unchecked Sendable is sound: the fixed bindings are published once through atomic words and
// never change after; `recent` is only touched while holding `lock`, which is also why it skips
// Swift's dynamic exclusivity checks; each binding is immutable.
@usableFromInline final class BindingCache<Value: DefaultsValueConvertible>: @unchecked Sendable {
    @usableFromInline static var fixedCount: Int { 4 }
    static var recentCapacity: Int { 4 }

    /// Retained bindings (`Unmanaged` bit patterns), 0 while free.
    @usableFromInline let fixed0 = AtomicWord(0)
    @usableFromInline let fixed1 = AtomicWord(0)
    @usableFromInline let fixed2 = AtomicWord(0)
    @usableFromInline let fixed3 = AtomicWord(0)
    @usableFromInline let lock = SuiteLock()
    @exclusivity(unchecked) @usableFromInline var recent: [KeyBinding<Value>] = []

    init() {}

    deinit {
        for index in 0..<Self.fixedCount {
            let bits = loadFixed(index)
            guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) else { continue }
            Unmanaged<KeyBinding<Value>>.fromOpaque(pointer).release()
        }
    }

    @inlinable
    func loadFixed(_ index: Int) -> UInt {
        switch index {
        case 0: fixed0.load()
        case 1: fixed1.load()
        case 2: fixed2.load()
        default: fixed3.load()
        }
    }

    func storeFixed(_ index: Int, _ bits: UInt) {
        switch index {
        case 0: fixed0.store(bits)
        case 1: fixed1.store(bits)
        case 2: fixed2.store(bits)
        default: fixed3.store(bits)
        }
    }

    /// Runs `body` with the binding made for the state numbered `serial`, or with `nil`. A
    /// closure rather than a returned binding: the found one is lent to `body` unretained, and
    /// returning it instead measured 18 more instructions on a `store[.key]` read (100 → 117).
    @inlinable
    func withBinding<Result>(forState serial: UInt64, _ body: (KeyBinding<Value>?) -> Result) -> Result {
        for index in 0..<Self.fixedCount {
            let bits = loadFixed(index)
            guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) else { break }
            let match = Unmanaged<KeyBinding<Value>>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                $0.serial == serial
            }
            if match {
                return Unmanaged<KeyBinding<Value>>.fromOpaque(pointer)._withUnsafeGuaranteedRef { body($0) }
            }
        }
        return body(lock.withLock { recent.first { $0.serial == serial } })
    }

    /// The binding made for the state numbered `serial` among the fixed ones, unretained: kept
    /// as long as the key, so a caller holding the key may borrow it. For reads the cache
    /// answers; ``withBinding(forState:_:)`` looks at the recent ones too.
    @inlinable @inline(__always)
    func fixedBinding(forState serial: UInt64) -> Unmanaged<KeyBinding<Value>>? {
        for index in 0..<Self.fixedCount {
            let bits = loadFixed(index)
            guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
            let binding = Unmanaged<KeyBinding<Value>>.fromOpaque(pointer)
            if binding._withUnsafeGuaranteedRef({ $0.serial == serial }) { return binding }
        }
        return nil
    }

    /// Keeps `binding`, unless another thread kept one for the same state first: returns the
    /// one kept. `isPermanent`: its state lives as long as the process.
    func keep(_ binding: KeyBinding<Value>, isPermanent: Bool) -> KeyBinding<Value> {
        if let kept = withBinding(forState: binding.serial, { $0 }) { return kept }
        return lock.withLock {
            // Published under the lock too, so two threads never take one place.
            for index in 0..<Self.fixedCount {
                let bits = loadFixed(index)
                if bits == 0 {
                    guard isPermanent else { break }
                    let retained = UInt(bitPattern: Unmanaged.passRetained(binding).toOpaque())
                    storeFixed(index, retained)
                    return binding
                }
                if let pointer = UnsafeRawPointer(bitPattern: bits) {
                    let kept = Unmanaged<KeyBinding<Value>>.fromOpaque(pointer).takeUnretainedValue()
                    if kept.serial == binding.serial { return kept }
                }
            }
            if let kept = recent.first(where: { $0.serial == binding.serial }) { return kept }
            recent.insert(binding, at: 0)
            if recent.count > Self.recentCapacity { recent.removeLast() }
            return binding
        }
    }
}
