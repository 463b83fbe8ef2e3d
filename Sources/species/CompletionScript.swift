import SpeciesKit

/// The shells `species completions` writes a script for.
enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
}

/// Completion scripts made from the command definitions: subcommands,
/// options, the values of options that take a word from a list, and, after
/// `show`, species names from `species __complete-names` (the cache, else
/// the data built into species; never the network).
enum CompletionScript {
    /// What completes after a subcommand's own words.
    private enum Arguments {
        case words([String])
        case speciesNames
        case nothing
    }

    private static func arguments(of command: CommandDefinition) -> Arguments {
        switch command {
        case Commands.show: .speciesNames
        case Commands.helpCommand: .words(Commands.visibleSubcommands.map(\.name))
        default: command.arguments.first.map { .words($0.choices) } ?? .nothing
        }
    }

    /// The words an option's value is one of; nil for a free value.
    private static func values(of option: OptionDefinition) -> [String]? {
        option.choices.isEmpty ? nil : option.choices
    }

    private static var valueOptions: [OptionDefinition] {
        (Options.global + Commands.visibleSubcommands.flatMap(\.options)).filter(\.takesValue).uniqued()
    }

    /// The options a subcommand (or the root, "") accepts.
    private static func options(of command: CommandDefinition) -> [String] {
        let options = command.options + command.globalOptions
        return options.flatMap(\.names).filter { $0.hasPrefix("--") }.uniqued()
    }

    static func render(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    // MARK: bash

    private static func bash() -> String {
        let skipValue = valueOptions.flatMap(\.names).joined(separator: "|")
        let commands = Commands.visibleSubcommands
        var script = """
            # bash completion for species: source <(species completions bash), or save as
            # ~/.local/share/bash-completion/completions/species
            _species() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
                        \(skipValue)) ((i++)) ;;
                        -*) ;;
                        *) command=${COMP_WORDS[i]}; break ;;
                    esac
                done
                case $prev in

            """
        for option in valueOptions {
            let names = option.names.joined(separator: "|")
            if option.takesList, let words = values(of: option) {
                script += """
                            \(names))
                                compopt -o nospace 2>/dev/null
                                local head=; [[ $cur == *,* ]] && head=${cur%,*},
                                COMPREPLY=($(compgen -P "$head" -W "\(words.joined(separator: " "))" -- "${cur##*,}")); return ;;

                    """
            } else if let words = values(of: option) {
                script +=
                    "        \(names)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            } else {
                script += "        \(names)) COMPREPLY=(); return ;;\n"
            }
        }
        script += """
                esac
                if [[ $cur == -* ]]; then
                    case $command in

            """
        for command in commands {
            script +=
                "            \(command.name)) COMPREPLY=($(compgen -W \"\(options(of: command).joined(separator: " "))\" -- \"$cur\")) ;;\n"
        }
        script += """
                        *) COMPREPLY=($(compgen -W "\(options(of: Commands.root).joined(separator: " "))" -- "$cur")) ;;
                    esac
                    return
                fi
                case $command in
                    '') COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;

            """
        for command in commands {
            switch arguments(of: command) {
            case .words(let words):
                script +=
                    "        \(command.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")) ;;\n"
            case .speciesNames:
                script += """
                            \(command.name))
                                local name prefix=${cur//\\\\/}
                                prefix=${prefix#[\\"\\']}
                                COMPREPLY=()
                                while IFS= read -r name; do
                                    [[ ${name,,} == "${prefix,,}"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
                                done < <(command species __complete-names 2>/dev/null) ;;

                    """
            case .nothing:
                continue
            }
        }
        script += """
                esac
            }
            complete -F _species species

            """
        return script
    }

    // MARK: zsh

    private static func zsh() -> String {
        let skipValue = valueOptions.flatMap(\.names).joined(separator: "|")
        let commands = Commands.visibleSubcommands
        var script = """
            #compdef species
            # zsh completion for species: save as _species in a folder of $fpath, or
            # source <(species completions zsh) after compinit

            _species() {
                local -a commands
                commands=(

            """
        for command in commands {
            script += "        \(zshQuoted("\(command.name):\(command.abstract)"))\n"
        }
        script += """
                )
                local command= i
                for ((i = 2; i < CURRENT; i++)); do
                    case ${words[i]} in
                        \(skipValue)) ((i++)) ;;
                        -*) ;;
                        *) command=${words[i]}; break ;;
                    esac
                done
                case ${words[CURRENT-1]} in

            """
        for option in valueOptions {
            let names = option.names.joined(separator: "|")
            if option.takesList, let words = values(of: option) {
                script +=
                    "        \(names)) compset -P '*,'; compadd -S '' -- \(words.joined(separator: " ")); return ;;\n"
            } else if let words = values(of: option) {
                script += "        \(names)) compadd -- \(words.joined(separator: " ")); return ;;\n"
            } else {
                script += "        \(names)) return ;;\n"
            }
        }
        script += """
                esac
                if [[ $PREFIX == -* ]]; then
                    case $command in

            """
        for command in commands {
            script += "            \(command.name)) compadd -- \(options(of: command).joined(separator: " ")) ;;\n"
        }
        script += """
                        *) compadd -- \(options(of: Commands.root).joined(separator: " ")) ;;
                    esac
                    return
                fi
                case $command in
                    '') _describe -t commands 'species command' commands ;;

            """
        for command in commands {
            switch arguments(of: command) {
            case .words(let words):
                script += "        \(command.name)) compadd -- \(words.joined(separator: " ")) ;;\n"
            case .speciesNames:
                script += """
                            \(command.name))
                                local -a names
                                names=(${(f)"$(command species __complete-names 2>/dev/null)"})
                                compadd -M 'm:{a-zA-Z}={A-Za-z}' -- $names ;;

                    """
            case .nothing:
                continue
            }
        }
        script += """
                esac
            }

            if [[ ${funcstack[1]} == _species ]]; then
                _species "$@"
            else
                compdef _species species
            fi

            """
        return script
    }

    private static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: fish

    private static func fish() -> String {
        let commands = Commands.visibleSubcommands
        var script = """
            # fish completion for species: save as ~/.config/fish/completions/species.fish,
            # or species completions fish | source
            # Each field once, with a comma after it: fish adds no space after
            # a comma, so the list goes on; species reads a final comma as its end.
            function __species_fields
                set -l head (string replace -r '[^,]*$' '' -- (commandline -ct))
                for field in \(Commands.list.options.first(where: \.takesList).flatMap(values)?.joined(separator: " ") ?? "")
                    printf '%s\\t%s\\n' $head$field, field
                end
            end
            # The values of an option, each described by the first argument.
            function __species_values
                printf "%s\\t$argv[1]\\n" $argv[2..-1]
            end
            complete -c species -f

            """
        let anyCommand = commands.map(\.name).joined(separator: " ")
        for command in commands {
            script +=
                "complete -c species -n 'not __fish_seen_subcommand_from \(anyCommand)' -a \(command.name) -d \(fishQuoted(brief(command.abstract)))\n"
        }
        for option in Options.global + [Options.help] {
            // Not after a command that refuses it.
            let refusing = commands.filter { !$0.globalOptions.contains(option) && option != Options.help }
            let condition = "not __fish_seen_subcommand_from " + refusing.map(\.name).joined(separator: " ")
            script += fishOption(option, condition: refusing.isEmpty ? nil : condition)
        }
        for command in commands {
            for option in command.options where option != Options.help {
                script += fishOption(option, condition: "__fish_seen_subcommand_from \(command.name)")
            }
            switch arguments(of: command) {
            case .words(let words):
                script +=
                    "complete -c species -n '__fish_seen_subcommand_from \(command.name)' -a '\(words.joined(separator: " "))'\n"
            case .speciesNames:
                script +=
                    "complete -c species -n '__fish_seen_subcommand_from \(command.name)' -a '(command species __complete-names 2>/dev/null)'\n"
            case .nothing:
                continue
            }
        }
        return script
    }

    private static func fishOption(_ option: OptionDefinition, condition: String?) -> String {
        var line = "complete -c species"
        if let condition { line += " -n '\(condition)'" }
        for name in option.names {
            line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
        }
        if option.takesList {
            line += " -x -a '(__species_fields)'"
        } else if let words = values(of: option) {
            line += " -x -a '(__species_values \(option.valueName ?? "value") \(words.joined(separator: " ")))'"
        } else if option.takesValue {
            line += " -x"
        }
        return line + " -d \(fishQuoted(brief(option.summary)))\n"
    }

    /// The first clause of `text`, in at most 50 characters: fish shows a
    /// description beside every candidate.
    private static func brief(_ text: String) -> String {
        var clause = text.prefix { !";:(".contains($0) }.trimmingCharacters(in: .whitespaces)
        guard clause.count > 50 else { return clause }
        clause = clause.prefix(49).split(separator: " ").dropLast().joined(separator: " ")
        while let last = clause.last, ",.".contains(last) { clause.removeLast() }
        return clause + "…"
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
