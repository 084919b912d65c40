#if Macros
    import SwiftSyntax
    import SwiftSyntaxMacros

    /// `@_StoredSetting`: the property's handle, a `let` named with a `$`, and the accessors
    /// that read and write through it.
    public struct StoredSettingMacro: AccessorMacro, PeerMacro {
        public static func expansion(
            of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [AccessorDeclSyntax] {
            guard case .setting(let property) = SettingProperty.use(of: declaration) else { return [] }
            let handle = property.handleName
            var accessors: [AccessorDeclSyntax] = []
            if property.initialValue != nil {
                // The default is the handle's; the property's own initial value, which Swift
                // passes here as the object is made, is not stored.
                accessors.append(
                    """
                    @storageRestrictions(accesses: \(raw: handle))
                    init(initialValue) {
                    }
                    """)
            }
            accessors.append(
                """
                get {
                    \(raw: handle)._value(observedBy: self)
                }
                """)
            accessors.append(
                """
                set {
                    \(raw: handle).wrappedValue = newValue
                }
                """)
            return accessors
        }

        public static func expansion(
            of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            guard case .setting(let property) = SettingProperty.use(of: declaration) else { return [] }
            let arguments = node.arguments?.as(LabeledExprListSyntax.self)
            let prefix = arguments?.first(where: { $0.label?.text == "prefix" })?.expression
            let store = arguments?.first(where: { $0.label?.text == "store" })?.expression
            let access = property.declaration.modifiers.first { modifier in
                ["public", "package", "internal", "fileprivate", "private", "open"].contains(modifier.name.text)
                    && modifier.detail == nil
            }
            let accessText = access.map { $0.name.text == "open" ? "public " : "\($0.name.text) " } ?? ""
            let handle = handleExpression(for: property, prefix: prefix, store: store)
            return ["\(raw: accessText)let \(raw: property.handleName) = \(handle)"]
        }

        /// `UserDefault(…)` or `Setting(…)` for the property.
        private static func handleExpression(
            for property: SettingProperty, prefix: ExprSyntax?, store: ExprSyntax?
        ) -> ExprSyntax {
            var arguments: [String] = []
            if let typedKey = property.typedKey {
                arguments.append(typedKey.description)
            } else {
                if let initialValue = property.initialValue { arguments.append("wrappedValue: \(initialValue)") }
                arguments.append(keyExpression(for: property, prefix: prefix))
            }
            if let info = property.info {
                arguments += info.map { $0.with(\.trailingComma, nil).trimmedDescription }
            }
            if let store { arguments.append("store: \(store.trimmed)") }
            let kind = property.info == nil ? "UserDefault" : "Setting"
            let generic = property.typedKey == nil ? property.valueType.map { "<\($0)>" } ?? "" : ""
            return "\(raw: kind)\(raw: generic)(\(raw: arguments.joined(separator: ", ")))"
        }

        /// The key: `@SettingKey`'s name, else the class's prefix and the property's name.
        private static func keyExpression(for property: SettingProperty, prefix: ExprSyntax?) -> String {
            if let keyName = property.keyName { return keyName.description }
            let name = property.plainName
            guard let prefix = prefix?.trimmed else { return "\"\(name)\"" }
            if let literal = prefix.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue,
                !text.contains("\""), !text.contains("\\")
            {
                return "\"\(text)\(name)\""
            }
            return "(\(prefix)) + \"\(name)\""
        }
    }
#endif
