// Stands in for Apple's Security framework: the Keychain calls and names the library's Keychain
// uses, as Swift imports SecBase.h and SecItem.h. The functions have no body, as this module is
// compiled, never linked.
@_exported import AppleFoundation

// SecBase.h: the result codes the library tells apart, imported as `OSStatus` constants.

/// SecBase.h: `errSecSuccess = 0`.
public var errSecSuccess: OSStatus { 0 }
/// SecBase.h: `errSecItemNotFound = -25300`.
public var errSecItemNotFound: OSStatus { -25300 }
/// SecBase.h: `errSecInteractionNotAllowed = -25308`.
public var errSecInteractionNotAllowed: OSStatus { -25308 }
/// SecBase.h: `errSecNotAvailable = -25291`.
public var errSecNotAvailable: OSStatus { -25291 }

// SecItem.h: `extern const CFStringRef kSec…`, imported as `let` constants. A C constant
// is never written, and Swift checks no isolation on one: nonisolated(unsafe) says the same.

/// SecItem.h: `kSecClass`, the key of an item's class.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// SecItem.h: `kSecClassGenericPassword`, the class of a generic password.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// SecItem.h: `kSecAttrService`, the service an item belongs to.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// SecItem.h: `kSecAttrAccount`, an item's account.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// SecItem.h: `kSecAttrLabel`, the label an item is shown by.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl"
/// SecItem.h: `kSecReturnData`, asking a search for the item's data.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// SecItem.h: `kSecMatchLimit`, how many items a search returns.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// SecItem.h: `kSecMatchLimitOne`, a search's one item.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// SecItem.h: `kSecValueData`, an item's secret data.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"

/// SecItem.h: `OSStatus SecItemCopyMatching(CFDictionaryRef query, CFTypeRef *result)`.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@_silgen_name("SecItemCopyMatching")
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus

/// SecItem.h: `OSStatus SecItemAdd(CFDictionaryRef attributes, CFTypeRef *result)`.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@_silgen_name("SecItemAdd")
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus

/// SecItem.h: `OSStatus SecItemUpdate(CFDictionaryRef query, CFDictionaryRef attributesToUpdate)`.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@_silgen_name("SecItemUpdate")
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus

/// SecItem.h: `OSStatus SecItemDelete(CFDictionaryRef query)`.
@available(macOS 10.6, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
@_silgen_name("SecItemDelete")
public func SecItemDelete(_ query: CFDictionary) -> OSStatus

/// SecBase.h: `CFStringRef SecCopyErrorMessageString(OSStatus status, void *reserved)`, nullable.
@available(macOS 10.3, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
@_silgen_name("SecCopyErrorMessageString")
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString?
