import Foundation
import SpeciesKit

/// JSONDecoder, as a library user would call it.
enum Decode {
    static func species(_ data: Data) throws -> StarWarsSpecies.Decoded {
        try JSONDecoder().decode(StarWarsSpecies.Decoded.self, from: data)
    }

    static func species(_ json: String) throws -> StarWarsSpecies.Decoded {
        try species(Data(json.utf8))
    }
}
