import Foundation
import SpeciesHTTP

/// The HTTP helper of `species` (see `HelperTransport`): not for people.
@main
enum SpeciesHTTPMain {
    static func main() async {
        exit(await HelperServer.serve(arguments: Array(CommandLine.arguments.dropFirst())))
    }
}
