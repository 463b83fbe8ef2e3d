/// How many columns text takes on a terminal: 2 for wide East Asian
/// characters and emoji, 0 for combining marks, 1 for the rest.
package enum DisplayWidth {
    package static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// An emoji (`🚀`, or `❤️`: a symbol asked to look like one with
    /// U+FE0F) takes two columns however many scalars make it.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) { return 2 }
        return scalars.reduce(0) { $0 + of($1) }
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    /// `text` in at most `width` columns, ending in `…` (after no space)
    /// when it was cut.
    package static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let size = of(character)
            guard used + size <= width - 1 else { break }
            kept.append(character)
            used += size
        }
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }
}
