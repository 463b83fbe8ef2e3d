import Foundation

/// Decodes a response body with `JSONDecoder`, describing what is wrong
/// when it is not the JSON expected, in words a user can act on.
enum ResponseBody {
    static func decode<Value: Decodable>(_ type: Value.Type, from body: Data, url: URL) throws(Fault) -> Value {
        let first = body.first { !$0.isJSONWhitespace }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            throw .invalidResponse(url: url, .notJSON(begins: first == nil ? "" : preview(of: body)))
        }
        do { return try JSONDecoder().decode(Value.self, from: body) } catch let error as DecodingError {
            throw .invalidResponse(url: url, problem(error))
        } catch { throw .invalidResponse(url: url, .malformed) }
    }

    /// `decode`'s value, or its error.
    static func decoded<Value: Decodable>(_ type: Value.Type, from body: Data, url: URL) -> Result<Value, Fault> {
        do { return .success(try decode(type, from: body, url: url)) } catch { return .failure(error) }
    }

    /// What a decoding error says of the body: a value missing or of
    /// another kind, at its path, or JSON that does not parse.
    static func problem(_ error: DecodingError) -> ResponseProblem {
        func path(_ context: DecodingError.Context, adding key: (any CodingKey)? = nil) -> String {
            var text = ""
            for key in context.codingPath + (key.map { [$0] } ?? []) {
                text += key.intValue.map { "[\($0)]" } ?? ((text.isEmpty ? "" : ".") + key.stringValue)
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context): return .missing(path: path(context, adding: key))
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return .wrongType(path: path(context), expected: kind(of: type))
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return .wrongType(path: path(context), expected: context.debugDescription)
        default: return .malformed
        }
    }

    private static func kind(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
        if name.hasPrefix("Dictionary") || name.contains("Decoded") || name.contains("Body") { return "an object" }
        if name.hasPrefix("String") { return "a string" }
        if name.hasPrefix("Int") || name.hasPrefix("Double") { return "a number" }
        return "of the expected type"
    }

    /// The first characters of the body on one line, quoted, with runs of
    /// white space folded and the rest made safe for a terminal.
    static func preview(of body: Data) -> String {
        let head = String(decoding: body.prefix(60), as: UTF8.self)
        let words = head.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "'\(TerminalText.escape(words))\(body.count > 60 ? "…" : "")'"
    }
}
