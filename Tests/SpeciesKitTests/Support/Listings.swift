import Foundation

@testable import SpeciesKit

/// A listing body of any dialect, as the client reads it.
func listing(_ data: Data) throws -> ListingBody {
    try ListingBody.read(data, url: URL(string: "https://swapi.dev/api/species/")!).get()
}
