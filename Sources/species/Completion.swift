import Foundation
import SpeciesKit

/// The shells `species completions` writes a script for.
enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The script: a few lines that ask `species __complete` what fits the
    /// words typed so far, as gh's `__complete` and swift-argument-parser's
    /// completion callbacks do, so that no shell reads the command line on
    /// its own. A candidate that ends in a comma (a `--fields` list) takes
    /// no space after it.
    var script: String {
        switch self {
        case .bash:
            #"""
            # bash completion for species: source <(species completions bash), or save as
            # ~/.local/share/bash-completion/completions/species
            _species() {
                local IFS=$'\n'
                COMPREPLY=($(command species __complete bash "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
                [[ ${COMPREPLY[0]} == *, ]] && compopt -o nospace 2>/dev/null
                return 0
            }
            complete -F _species species

            """#
        case .zsh:
            #"""
            #compdef species
            # zsh completion for species: save as _species in a folder of $fpath, or
            # source <(species completions zsh) after compinit
            _species() {
                local -a candidates
                candidates=(${(f)"$(command species __complete zsh "${(@)words[2,CURRENT]}" 2>/dev/null)"})
                # Names match ignoring case, as species matches them.
                if [[ $candidates[1] == *, || $candidates[1] == *,:* ]]; then
                    _describe -t values species candidates -M 'm:{a-zA-Z}={A-Za-z}' -S ''
                else
                    _describe -t values species candidates -M 'm:{a-zA-Z}={A-Za-z}'
                fi
            }
            if [[ ${funcstack[1]} == _species ]]; then _species "$@"; else compdef _species species; fi

            """#
        case .fish:
            #"""
            # fish completion for species: save as ~/.config/fish/completions/species.fish,
            # or species completions fish | source
            complete -c species -f -a '(command species __complete fish (commandline -opc)[2..-1] (commandline -ct))'

            """#
        }
    }
}

/// `species __complete <shell> <word>...`: what completes the last word,
/// given the words after `species` before it, read as `ArgumentParser`
/// reads a line: the subcommands, the options the command takes, the
/// values of the option before (a `--fields` list after its last comma),
/// and after `show`, species names. Names come from the cache, else from
/// the SWAPI data built in: never from the network, so Tab never waits.
struct CompleteCommand: Sendable, Equatable {
    let shell: Shell
    let words: [String]

    /// The words given, as the shell reads them: `--shell=` or a URL's `:`
    /// that bash splits into words of their own are joined again.
    init(shell: Shell, words: [String]) {
        self.shell = shell
        var joined: [String] = []
        var glue = false
        for word in words {
            if shell == .bash, !joined.isEmpty, glue || word == ":" || word == "=" {
                joined[joined.count - 1] += word
                glue = word == ":" || word == "="
            } else {
                joined.append(word)
                glue = false
            }
        }
        self.words = joined
    }

    func run(_ environment: [String: String], _ output: any OutputSink) async {
        let parser = Invocation.parser
        var parsed = ParsedArguments(command: parser.root)
        let end = parser.walk(Array(words.dropLast())) { event, _ in
            if case .option(let option, let value) = event {
                parsed.occurrences.append(.init(option: option, value: value))
            }
        }
        var typed = words.last ?? ""
        var option = end.pending
        var head = ""
        if option == nil, typed.hasPrefix("--"), let equals = typed.firstIndex(of: "=") {
            option = parser.options(of: end.command).first { $0.key == typed[..<equals] }
            head = shell == .bash ? "" : String(typed[...equals])
            typed = String(typed[typed.index(after: equals)...])
        }
        let candidates: [(value: String, description: String)]
        if let option {
            candidates = Self.values(of: option, typed: typed).map { (head + $0, option.valueName ?? "value") }
        } else if typed.hasPrefix("-") {
            candidates = parser.options(of: end.command).filter { $0.key.hasPrefix(typed) }.uniqued().map {
                ($0.key, Self.brief($0.summary))
            }
        } else if end.command == parser.root {
            candidates = Commands.visibleSubcommands.filter { $0.name.hasPrefix(typed) }.map {
                ($0.name, Self.brief($0.abstract))
            }
        } else if end.command == Commands.show {
            let defaults = GlobalSettings.defaults(environment: environment)
            let settings = (try? GlobalSettings.options.read(parsed, environment, into: defaults)) ?? defaults
            let plain = typed.filter { $0 != "\\" }.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            candidates = await Self.names(settings).filter { $0.lowercased().hasPrefix(plain.lowercased()) }.map {
                ($0, "species")
            }
        } else {
            let words =
                end.command == Commands.helpCommand
                ? Commands.visibleSubcommands.map(\.name) : end.command.arguments.first?.choices ?? []
            candidates = words.filter { $0.hasPrefix(typed) }.map { ($0, "argument") }
        }
        output.write(candidates.map { line($0.value, $0.description) + "\n" }.joined())
    }

    /// A candidate as the shell's script reads it.
    private func line(_ value: String, _ description: String) -> String {
        switch shell {
        case .bash: value.map { " '\"\\$`!&;|<>()*?[]{}#~".contains($0) ? "\\\($0)" : String($0) }.joined()
        case .zsh: value.replacingOccurrences(of: ":", with: "\\:") + ":" + description
        case .fish: value + "\t" + description
        }
    }

    /// The values of `option` that begin with `typed`; in a list, after its
    /// last comma, each field once, with a comma after it.
    private static func values(of option: OptionDefinition, typed: String) -> [String] {
        guard option.takesList else { return option.choices.filter { $0.hasPrefix(typed) } }
        let head = String(typed[..<(typed.lastIndex(of: ",").map(typed.index(after:)) ?? typed.startIndex)])
        let chosen = head.split(separator: ",").map(String.init)
        let last = typed.dropFirst(head.count)
        return option.choices.filter { $0.hasPrefix(last) && !chosen.contains($0) }.map { head + $0 + "," }
    }

    /// The names of the species the cache holds, offline, for the services
    /// of `settings`; else SWAPI's, as built in: a name with a control
    /// character, which would break the line, is left out.
    private static func names(_ settings: GlobalSettings) async -> [String] {
        var configuration = settings.client
        configuration.cache.mode = .offline
        let cached = try? await SpeciesClient(configuration: configuration).allSpecies().value.map(\.name)
        return (cached ?? SpeciesClient.builtInNames).filter { !$0.isEmpty && TerminalText.escape($0) == $0 }.uniqued()
    }

    /// The first clause of `text`, in at most 50 characters: fish and zsh
    /// show a description beside every candidate.
    static func brief(_ text: String) -> String {
        var clause = text.prefix { !";:(".contains($0) }.trimmingCharacters(in: .whitespaces)
        guard clause.count > 50 else { return clause }
        clause = clause.prefix(49).split(separator: " ").dropLast().joined(separator: " ")
        while let last = clause.last, ",.".contains(last) { clause.removeLast() }
        return clause + "…"
    }
}
