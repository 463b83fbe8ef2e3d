/// Text from the server made safe for a terminal.
package enum TerminalText {
    /// Shows C0 and C1 control characters and DEL as `\u{1B}`, so that a
    /// name cannot move the cursor, ring the bell or recolour the screen.
    /// Tabs and newlines are escaped too: the detail format writes its own.
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
