/// The release of species and SpeciesKit.
public enum SpeciesRelease {
    /// The version of species and SpeciesKit: the one place it is stated
    /// (the Makefile reads it from here).
    public static let version = "0.13.3"
}
