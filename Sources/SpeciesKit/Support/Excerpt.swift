/// Text from the command line or a server, made fit for a message.
package enum Excerpt {
    /// `text` with the credentials of any URL in it shown as `***`, and cut
    /// in its middle with `…` past `limit` characters: a 100 KB argument
    /// makes a short quote, and the sentence around it keeps its cause.
    package static func of(_ text: String, limit: Int = 120) -> String {
        let text = redactingCredentials(text)
        guard text.count > limit else { return text }
        let head = limit * 2 / 3
        return text.prefix(head) + "…" + text.suffix(max(0, limit - head - 1))
    }

    /// `https://user:secret@host/` as `https://***@host/`, wherever a URL
    /// stands in `text`, even in text that is no URL as a whole.
    package static func redactingCredentials(_ text: String) -> String {
        var rest = Substring(text)
        var redacted = ""
        while let scheme = rest.range(of: "://") {
            redacted += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authority = rest.prefix { !"/?#".contains($0) && !$0.isWhitespace }
            if let at = authority.lastIndex(of: "@") {
                redacted += "***"
                rest = rest[at...]
            }
        }
        return redacted + rest
    }
}
