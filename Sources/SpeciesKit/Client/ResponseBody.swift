import Foundation

/// Decodes a response body with `JSONDecoder`, describing what is wrong
/// when it is not the JSON expected, in words a user can act on.
enum ResponseBody {
    static func decode<Value: Decodable>(_ type: Value.Type, from body: Data, url: URL) throws(SpeciesError) -> Value {
        guard let first = body.first(where: { !$0.isJSONWhitespace }) else {
            throw .invalidResponse(url: url, problem: "the body is empty")
        }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            throw .invalidResponse(url: url, problem: "the body is not JSON (it begins \(preview(of: body)))")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: body)
        } catch let error as SpeciesIssue.TooManyElements {
            throw .refused(
                url: url, problem: "it lists \(error.count) species; more than \(SpeciesIssue.maxElements) are refused")
        } catch let error as DecodingError {
            throw .invalidResponse(url: url, problem: describe(error))
        } catch {
            throw .invalidResponse(url: url, problem: "the body is not valid JSON (it may be cut short)")
        }
    }

    /// `'results' is missing`, `'results' is not an array`, or, for a
    /// syntax error, that the body is not valid JSON.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, adding key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return "'\(text)'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context, adding: key)) is missing"
        case .typeMismatch(let type, let context) where !context.codingPath.isEmpty:
            return "\(path(context)) is not \(kind(of: type))"
        case .valueNotFound(_, let context) where !context.codingPath.isEmpty:
            return "\(path(context)) is null"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "\(path(context)) \(context.debugDescription)"
        case .typeMismatch(let type, _):
            return "the body is not \(kind(of: type))"
        default:
            return "the body is not valid JSON (it may be cut short)"
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
