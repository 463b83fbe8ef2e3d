import Foundation

/// Decodes a response body, describing what is wrong when it is not the JSON
/// expected, in words a user can act on.
enum ResponseDecoder {
    static func page(from body: Data, url: URL) throws(SpeciesError) -> SpeciesPage {
        try decode(body, url: url, with: SpeciesDocument.page)
    }

    static func species(from body: Data, url: URL) throws(SpeciesError) -> StarWarsSpecies {
        try decode(body, url: url, with: SpeciesDocument.species)
    }

    static func resource(from body: Data, url: URL) throws(SpeciesError) -> RelatedResource {
        try decode(body, url: url, with: SpeciesDocument.resource)
    }

    private static func decode<Value>(
        _ body: Data, url: URL, with decoder: (Data) throws(SpeciesDocument.Problem) -> Value
    ) throws(SpeciesError) -> Value {
        try checkStart(of: body, url: url)
        do {
            return try decoder(body)
        } catch {
            throw .invalidResponse(url: url, problem: error.description)
        }
    }

    /// A body that is empty, or does not start as a JSON object (an HTML error
    /// page, say), is described by what it begins with.
    private static func checkStart(of body: Data, url: URL) throws(SpeciesError) {
        guard let first = body.first(where: { !isJSONWhitespace($0) }) else {
            throw .invalidResponse(url: url, problem: "the body is empty")
        }
        guard first == UInt8(ascii: "{") else {
            throw .invalidResponse(url: url, problem: "the body is not a JSON object (it begins \(preview(of: body)))")
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
}
