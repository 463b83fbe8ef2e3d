/// The detail text of a species, byte for byte as the detail screen of the
/// iOS tutorial SpeciesKit grew out of built it. Control characters in the
/// server's values are escaped (`\u{1B}`); the text's own tabs and
/// newlines are not.
public enum DetailRenderer {
    /// The title line, a blank line, the description and a final newline.
    public static func render(_ species: StarWarsSpecies) -> String {
        "\(TerminalText.escape(species.name))\n\n\(description(of: species))\n"
    }

    /// The names behind a species' links, as they follow its detail text
    /// after a blank line: the homeworld, the people, and the films in
    /// episode order.
    public static func render(_ related: RelatedResources) -> String {
        func names(_ names: [RelatedResources.Name]) -> String {
            names.isEmpty ? "none" : names.map { TerminalText.escape($0.text) }.joined(separator: ", ")
        }
        return "Homeworld: \(related.homeworld.map { TerminalText.escape($0.text) } ?? "none")\n"
            + "People: \(names(related.people))\nFilms: \(names(related.films))\n"
    }

    /// The description alone, without the species' name above it.
    public static func description(of species: StarWarsSpecies) -> String {
        let safe: (String) -> String = TerminalText.escape
        var text = ""
        if !species.name.isEmpty {
            let name = safe(species.name)
            if let language = species.language.map(safe) {
                text += "Members of the \(name) species speak \(language). "
            }
            if let height = species.averageHeight {
                text += "The \(name) can be identified by their height, typically \(height)cm."
            }
            if let eyes = species.eyeColors, let skin = species.skinColors, let hair = species.hairColors {
                text += "\n\nTypical coloring includes eyes:\n\t\(safe(eyes.joined(separator: ", ")))"
                text += "\nhair:\n\t\(safe(hair.joined(separator: ", ")))"
                text += "\nand skin:\n\t\(safe(skin.joined(separator: ", ")))"
            }
        }
        if let lifespan = species.averageLifespan {
            text += "\n\nTheir average lifespan is \(safe(lifespan))"
            if SWAPINumber.whole(lifespan) != nil { text += " years" }
        }
        return text + "."
    }
}
