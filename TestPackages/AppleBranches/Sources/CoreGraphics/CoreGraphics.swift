// Stands in for Apple's CoreGraphics, so that `canImport(CoreGraphics)` holds. It declares
// nothing: `CGFloat`, `CGPoint`, `CGSize` and `CGRect`, all the library's geometry conformances
// use, are declared on Linux by Foundation, with the API of CoreGraphics' CGBase.h and
// CGGeometry.h, and every file that uses them imports Foundation too.
