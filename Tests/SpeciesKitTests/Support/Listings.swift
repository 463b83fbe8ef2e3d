import Foundation

@testable import SpeciesKit

/// A listing body of any dialect, as the client reads it.
func listing(_ data: Data) throws -> ListingBody {
    try JSONDecoder().decode(ListingBody.self, from: data)
}
