/// A number of seconds in words, for a wait or an age: `42 s`,
/// `7 h 12 min`, `12 days`, `31688 years`. Any Double is safe: the number
/// may be a server's.
enum TimeSpan {
    /// About 31.7 million years: longer than any span worth describing exactly.
    static let longest = 1e15

    static func describe(_ seconds: Double) -> String {
        let seconds = seconds.isNaN ? 0 : min(max(seconds.rounded(.up), 0), longest)
        switch seconds {
        case ..<120: return "\(Int(seconds)) s"
        case ..<(48 * 3600):
            let minutes = Int(seconds) / 60
            return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
        case ..<(730 * 86400): return "\(Int(seconds / 86400)) days"
        default: return "\(Int(seconds / 31_557_600)) years"
        }
    }
}
