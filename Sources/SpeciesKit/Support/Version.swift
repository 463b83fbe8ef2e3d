public enum SpeciesRelease {
    /// The version of species and SpeciesKit.
    public static let version = "0.1.0"
}
