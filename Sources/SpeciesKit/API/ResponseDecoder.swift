import Foundation

/// Decodes a response body, describing what is wrong when it is not the JSON
/// expected, in words a user can act on.
enum ResponseDecoder {
    private static let decoder = JSONDecoder()

    static func decode<Value: Decodable>(_ type: Value.Type, from body: Data, url: URL) throws -> Value {
        func invalid(_ problem: String) -> SpeciesError {
            .invalidResponse(url: url, problem: problem)
        }
        guard let first = body.first(where: { !isJSONWhitespace($0) }) else {
            throw invalid("the body is empty")
        }
        guard first == UInt8(ascii: "{") else {
            throw invalid("the body is not a JSON object (it begins \(preview(of: body)))")
        }
        do {
            return try decoder.decode(type, from: body)
        } catch let error as DecodingError {
            throw invalid(describe(error))
        } catch {
            throw invalid("the body is not valid JSON")
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The first characters of the body on one line, quoted, with runs of
    /// white space folded and other control characters escaped.
    static func preview(of body: Data) -> String {
        let head = String(decoding: body.prefix(60), as: UTF8.self)
        let words = head.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let escaped = words.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control
                ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }.joined()
        return "'\(escaped)\(body.count > 60 ? "…" : "")'"
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "the body is not valid JSON (it may be cut short)"
        case .dataCorrupted(let context):
            return "'\(path(context.codingPath))' is not valid"
        case .typeMismatch(let type, let context):
            return "'\(path(context.codingPath))' is not \(describe(type))"
        case .valueNotFound(let type, let context):
            return "'\(path(context.codingPath))' is null, not \(describe(type))"
        case .keyNotFound(let key, let context):
            return "'\(path(context.codingPath + [key]))' is missing"
        @unknown default:
            return "the body is not SWAPI JSON"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
        if name == "String" { return "a string" }
        if name == "Int" { return "a whole number" }
        return "of the expected type"
    }

    /// `results[3].name` from a coding path.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
