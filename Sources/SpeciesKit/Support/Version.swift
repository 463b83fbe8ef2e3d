public enum SpeciesRelease {
    public static let version = "0.1.0"
}
