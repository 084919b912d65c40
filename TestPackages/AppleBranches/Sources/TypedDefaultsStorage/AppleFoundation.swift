// What Apple's Foundation brings into every file that imports it and Linux's does not (see
// AppleFoundation).
@_exported import AppleFoundation

// The lock's, the file sync's and the watcher's Darwin branches are compiled only while their
// stand-ins are found (see the library target's copy of this check).
#if !canImport(Darwin) || !canImport(os)
    #error("a stand-in module is missing, so the Apple branches it guards are not compiled")
#endif
