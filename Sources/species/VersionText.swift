import BuildInfo
import SpeciesKit

/// What `species --version` prints: `species 0.13.3 (e65e440, 2026-11-24)`,
/// the commit and build date when the build knows them (`make` tells it).
enum VersionText {
    static var line: String {
        let known = [String(cString: species_build_commit()), String(cString: species_build_date())].filter {
            !$0.isEmpty
        }
        return "species \(SpeciesRelease.version)" + (known.isEmpty ? "" : " (\(known.joined(separator: ", ")))") + "\n"
    }
}
