/// One species, or the name of a planet, person or film, as any dialect
/// answers it: the object itself, or swapi.tech's
/// `{"message": "ok", "result": {"properties": {...}}}`.
struct DetailBody<Value: Decodable>: Decodable {
    let value: Value

    private enum Envelope: String, CodingKey { case result, properties }

    init(from decoder: any Decoder) throws {
        if let envelope = try? decoder.container(keyedBy: Envelope.self), envelope.contains(.result) {
            let result = try envelope.nestedContainer(keyedBy: Envelope.self, forKey: .result)
            value = try result.decode(Value.self, forKey: .properties)
        } else {
            value = try Value(from: decoder)
        }
    }
}
