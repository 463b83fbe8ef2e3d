import Foundation

/// `--color`.
enum ColorMode: String, Sendable, CaseIterable { case auto, always, never }

/// What the terminal allows, if there is one: how wide the table may be,
/// whether to use colour on stdout, and whether to show progress and hints
/// on stderr (as gh does, only at a terminal).
struct Terminal: Sendable, Equatable {

    /// Columns available; nil for no limit (a pipe, and no COLUMNS).
    var width: Int?
    var color = false
    var progress = false
    var hints = false

    /// Width: `COLUMNS`, else the size of the terminal on stdout. Colour:
    /// `always`, or `auto` on a terminal unless `NO_COLOR` is set or
    /// `TERM=dumb`. Progress: on a terminal on stderr, unless `quiet` or
    /// `TERM=dumb`. Hints: on a terminal on stderr, unless `quiet`.
    static func detect(environment: [String: String], colorMode: ColorMode, quiet: Bool) -> Terminal {
        decide(
            environment: environment, colorMode: colorMode, quiet: quiet,
            stdout: isatty(STDOUT_FILENO) == 1 ? Device(width: windowWidth()) : nil,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// The width of stdout: `COLUMNS`, else the terminal's; nil for a pipe
    /// without `COLUMNS`.
    static func width(environment: [String: String]) -> Int? {
        columns(environment) ?? (isatty(STDOUT_FILENO) == 1 ? windowWidth() : nil)
    }

    private static func columns(_ environment: [String: String]) -> Int? {
        environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// A terminal on stdout, and its width if it reports one.
    struct Device { var width: Int? }

    /// `detect`'s rules, given what the file descriptors are.
    static func decide(
        environment: [String: String], colorMode: ColorMode, quiet: Bool, stdout: Device?, stderrIsTerminal: Bool
    ) -> Terminal {
        let dumb = environment["TERM"] == "dumb"
        let color: Bool =
            switch colorMode {
            case .always: true
            case .never: false
            case .auto: stdout != nil && !dumb && (environment["NO_COLOR"] ?? "").isEmpty
            }
        return Terminal(
            width: columns(environment) ?? stdout?.width, color: color, progress: !quiet && !dumb && stderrIsTerminal,
            hints: !quiet && stderrIsTerminal)
    }

    private static func windowWidth() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
