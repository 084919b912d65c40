// What Apple's Foundation brings into every file that imports it and Linux's does not: Darwin's
// C library and CoreFoundation (see AppleFoundation).
@_exported import AppleFoundation

// Each Apple branch is compiled only while its stand-in is found: without one, this package
// would build the Linux branches and pass while checking nothing. A module counts only when
// it is a dependency of this target (Package.swift), built before it.
#if !canImport(Darwin) || !canImport(os) || !canImport(SwiftUI) || !canImport(CoreGraphics)
    #error("a stand-in module is missing, so the Apple branches it guards are not compiled")
#endif
