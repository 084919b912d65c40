// Stands in for Apple's Combine: OpenCombine has its API under its own module name.
@_exported import OpenCombine
