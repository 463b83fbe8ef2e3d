/// The detail text of `species show`, byte for byte as the iOS tutorial's
/// detail screen built it (spec: `detail-view.md`).
public enum DetailRenderer {
    /// The title line, a blank line, the description and a final newline.
    public static func render(_ species: StarWarsSpecies) -> String {
        "\(species.name ?? "")\n\n\(description(of: species))\n"
    }

    public static func description(of species: StarWarsSpecies) -> String {
        var text = ""
        if let name = species.name {
            if let language = species.language {
                text += "Members of the \(name) species speak \(language). "
            }
            if let height = species.averageHeight {
                text += "The \(name) can be identified by their height, typically \(height)cm."
            }
            if let eyes = species.eyeColors, let skin = species.skinColors, let hair = species.hairColors {
                text += "\n\nTypical coloring includes eyes:\n\t\(eyes.joined(separator: ", "))"
                text += "\nhair:\n\t\(hair.joined(separator: ", "))"
                text += "\nand skin:\n\t\(skin.joined(separator: ", "))"
            }
        }
        if let lifespan = species.averageLifespan {
            text += "\n\nTheir average lifespan is \(lifespan)"
            if Int(lifespan) != nil {
                text += " years"
            }
        }
        return text + "."
    }
}
