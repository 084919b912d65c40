#if Macros
    import SwiftDiagnostics
    import SwiftSyntax
    import SwiftSyntaxMacros

    /// `@ObservableSettings`: marks each stored `var` of the class `@_StoredSetting`, with the
    /// class's prefix and store, and makes the class `Observable` and a `SettingsCatalog`.
    public struct ObservableSettingsMacro: MemberAttributeMacro, MemberMacro, ExtensionMacro {
        /// The class's member that reads its store, which every handle is made with.
        static let storeMember = "_settingsStore"

        public static func expansion(
            of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
            providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
        ) throws -> [AttributeSyntax] {
            guard declaration.is(ClassDeclSyntax.self) else { return [] }
            let use = SettingProperty.use(of: member)
            if case .refused(let diagnostics, _) = use { diagnostics.forEach(context.diagnose) }
            guard use.expanded != nil else { return [] }
            // The class's own arguments, as written: the prefix and the store.
            return [
                AttributeSyntax(
                    attributeName: IdentifierTypeSyntax(name: .identifier("_StoredSetting")),
                    leftParen: node.arguments == nil ? nil : .leftParenToken(),
                    arguments: node.arguments, rightParen: node.arguments == nil ? nil : .rightParenToken())
            ]
        }

        /// The class's store, read with the class's isolation: a store the class cannot reach
        /// (a main-actor `static let` of a `nonisolated` class) is reported here, by its name,
        /// rather than at each property.
        public static func expansion(
            of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
            conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            guard declaration.is(ClassDeclSyntax.self),
                let store = node.arguments?.as(LabeledExprListSyntax.self)?.first(where: { $0.label?.text == "store" })
            else { return [] }
            return [
                """
                // A `nonisolated` class reads a store declared `nonisolated static let`.
                static var \(raw: storeMember): DefaultsStore { \(store.expression.trimmed) }
                """
            ]
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
            // Only the conformances the class does not declare itself are asked for.
            let names = Set(protocols.map { SettingAttributes.unqualified($0.trimmedDescription) })
            var extensions: [DeclSyntax] = []
            if names.contains("Observable") {
                extensions.append(
                    """
                    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
                    extension \(type.trimmed): Observable {}
                    """)
            }
            if names.contains("SettingsCatalog") {
                // Its settings are its stored handles: listed and published as a catalog's.
                extensions.append("extension \(type.trimmed): SettingsCatalog {}")
            }
            return extensions.compactMap { $0.as(ExtensionDeclSyntax.self) }
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
