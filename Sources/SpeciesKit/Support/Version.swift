public enum SpeciesKit {
    public static let version = "0.1.0"
}
