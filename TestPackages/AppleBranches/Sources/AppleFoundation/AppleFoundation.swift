// What Apple's Foundation re-exports and Linux's does not: Darwin's C library (the Darwin
// stand-in) and the few CoreFoundation declarations the library uses. Each library target here
// re-exports this module from one file, so every file sees it as a file that imports Foundation
// does on Apple platforms. Not named CoreFoundation: Linux's toolchain has a module of that name.
// The functions have no body, as this module is compiled, never linked.
@_exported import Darwin
import Foundation

/// CFBase.h: `CFTypeRef`, any CoreFoundation object, imported as `AnyObject`.
public typealias CFTypeRef = AnyObject

/// CFBase.h: `typedef unsigned long CFTypeID`.
public typealias CFTypeID = UInt

/// CFString.h: `CFStringRef`, toll-free bridged to `NSString`, so `as String` and
/// `as CFString` convert as they do on Apple platforms.
public typealias CFString = NSString

/// CFDictionary.h: `CFDictionaryRef`, toll-free bridged to `NSDictionary`.
public typealias CFDictionary = NSDictionary

/// CFBase.h: `CFTypeID CFGetTypeID(CFTypeRef cf)`, whose argument is imported unannotated.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@_silgen_name("CFGetTypeID")
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID

/// CFNumber.h: `CFTypeID CFBooleanGetTypeID(void)`.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@_silgen_name("CFBooleanGetTypeID")
public func CFBooleanGetTypeID() -> CFTypeID
