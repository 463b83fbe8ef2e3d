import Foundation

/// A number of seconds in words. Any Double is safe: the number may be a
/// server's.
package enum TimeSpan {
    /// About 31.7 million years: longer than any span worth describing exactly.
    static let longest = 1e15

    /// A wait or an age, rounded up to its unit: `42 s`, `7 h 12 min`,
    /// `12 days`, `31688 years`.
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

    /// A span someone chose, as they wrote it: `15 s`, `0.5 s`.
    static func exactly(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < longest ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// A short span measured or computed, to a tenth: `0.4 s`, `1.0 s`.
    static func tenths(_ seconds: Double) -> String { String(format: "%.1f s", seconds) }
}
