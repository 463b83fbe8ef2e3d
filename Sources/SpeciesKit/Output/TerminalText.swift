/// Text from a server or a command line made safe for a terminal.
package enum TerminalText {
    /// Shows as `\u{1B}` what could move the cursor, ring the bell, recolour
    /// the screen, or make text read in another order than it is written:
    /// C0 and C1 control characters and DEL, bidirectional marks, overrides
    /// and isolates (U+061C, U+200E-200F, U+202A-202E, U+2066-2069),
    /// invisible characters (the soft hyphen U+00AD, U+180E, U+200B-200D,
    /// U+2060-2065, U+206A-206F, U+FEFF, the Hangul fillers U+115F, U+1160,
    /// U+3164 and U+FFA0, and the tag characters U+E0000-E007F) and line
    /// and paragraph separators (U+2028, U+2029). Tabs and newlines are
    /// escaped too: the detail text writes its own.
    package static func escape(_ text: String) -> String { escape(text, keepingLineBreaks: false) }

    /// The same; CR and LF kept as they are when `keepingLineBreaks`.
    package static func escape(_ text: String, keepingLineBreaks: Bool) -> String {
        func unsafe(_ scalar: Unicode.Scalar) -> Bool {
            isUnsafe(scalar) && !(keepingLineBreaks && (scalar == "\r" || scalar == "\n"))
        }
        guard text.unicodeScalars.contains(where: unsafe) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if unsafe(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case ..<0x20, 0x7F...0x9F, 0xAD, 0x61C, 0x115F, 0x1160, 0x180E, 0x200B...0x200F, 0x2028...0x202E,
            0x2060...0x206F, 0x3164, 0xFEFF, 0xFFA0, 0xE0000...0xE007F:
            true
        default: false
        }
    }
}
