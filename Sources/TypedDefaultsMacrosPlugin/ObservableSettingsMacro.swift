#if Macros
    import SwiftDiagnostics
    import SwiftSyntax
    import SwiftSyntaxMacros

    /// `@ObservableSettings`: marks each stored `var` of the class `@_StoredSetting`, with the
    /// class's prefix and store, and makes the class `Observable`.
    public struct ObservableSettingsMacro: MemberAttributeMacro, ExtensionMacro {
        public static func expansion(
            of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
            providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
        ) throws -> [AttributeSyntax] {
            guard declaration.is(ClassDeclSyntax.self) else { return [] }
            switch SettingProperty.use(of: member) {
            case .leftAlone:
                return []
            case .refused(let diagnostics):
                diagnostics.forEach(context.diagnose)
                return []
            case .setting:
                // The class's own arguments, as written: the prefix and the store.
                return [
                    AttributeSyntax(
                        attributeName: IdentifierTypeSyntax(name: .identifier("_StoredSetting")),
                        leftParen: node.arguments == nil ? nil : .leftParenToken(),
                        arguments: node.arguments, rightParen: node.arguments == nil ? nil : .rightParenToken())
                ]
            }
        }

        public static func expansion(
            of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            if let keyword = notAClassKeyword(declaration) {
                context.diagnose(SettingsDiagnostic.notAClass(declaration, keyword: keyword))
                return []
            }
            guard !protocols.isEmpty else { return [] }
            let observable: DeclSyntax = """
                @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
                extension \(type.trimmed): Observable {}
                """
            return observable.as(ExtensionDeclSyntax.self).map { [$0] } ?? []
        }

        /// The keyword of a struct, actor, enum or protocol, which the macro does not apply to.
        private static func notAClassKeyword(_ declaration: some DeclGroupSyntax) -> TokenSyntax? {
            if let declaration = declaration.as(StructDeclSyntax.self) { return declaration.structKeyword }
            if let declaration = declaration.as(ActorDeclSyntax.self) { return declaration.actorKeyword }
            if let declaration = declaration.as(EnumDeclSyntax.self) { return declaration.enumKeyword }
            if let declaration = declaration.as(ProtocolDeclSyntax.self) { return declaration.protocolKeyword }
            if let declaration = declaration.as(ExtensionDeclSyntax.self) { return declaration.extensionKeyword }
            return nil
        }
    }

    /// `@SettingKey`, `@SettingInfo`, `@SettingIgnored`: read by the other macros, adding nothing.
    public struct SettingMarkerMacro: PeerMacro {
        public static func expansion(
            of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            []
        }
    }
#endif
