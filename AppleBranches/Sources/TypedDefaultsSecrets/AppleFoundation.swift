// What Apple's Foundation brings into every file that imports it and Linux's does not (see
// AppleFoundation); the library's target checks that every stand-in is found.
@_exported import AppleFoundation
