import Foundation

/// An instant to the microsecond, as SWAPI writes one
/// (`2014-12-10T16:44:31.486000Z`, with three fraction digits or none) and
/// as ISO 8601 allows with an offset (`+01:00`), read and written in one
/// calendar: the proleptic Gregorian, as ISO 8601 says.
/// (`Date.ISO8601FormatStyle` reads years before 1582 in the Julian
/// calendar, ten days off.) Neither reading nor writing depends on the
/// machine's time zone or locale.
///
/// A `Date` is a Double of seconds since 2001: it holds every microsecond
/// only until about 2138, and every 30 microseconds by year 9999. So the
/// model keeps a `Timestamp`, whole seconds and microseconds, and its
/// `date` is the nearest `Date`: what is read is written the same, to the
/// microsecond, in years 1 to 9999.
package struct Timestamp: Hashable, Sendable {
    /// Instants from 0001-01-01T00:00:00Z up to, not including, year 10000.
    private static let secondsSince1970 = -62_135_596_800..<253_402_300_800

    /// Whole seconds since 1970-01-01T00:00:00Z.
    private let seconds: Int64
    /// The microseconds within that second.
    private let microseconds: Int64

    /// `yyyy-MM-ddTHH:mm:ss`, a fraction of 1 to 9 digits if any (cut to
    /// the microsecond: the second never changes), then `Z` or an offset
    /// `±HH:MM`, and nothing after. Nil for anything else, for a day or
    /// time that does not exist (February 30, 24:00, an offset minute of
    /// 60), and for an instant outside years 1 to 9999 in UTC.
    package init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8(Self.parse) else { return nil }
        self = parsed
    }

    /// The microsecond nearest `date`, within years 1 to 9999.
    package init(_ date: Date) {
        // Exact arithmetic on the Double's whole seconds and its fraction;
        // the clamp keeps any Date from trapping on the Int64 conversion.
        let interval = date.timeIntervalSince1970
        let bounded =
            interval.isNaN
            ? 0
            : min(max(interval, Double(Self.secondsSince1970.lowerBound)), Double(Self.secondsSince1970.upperBound - 1))
        let whole = bounded.rounded(.down)
        let microseconds = Int64(((bounded - whole) * 1e6).rounded())
        (seconds, self.microseconds) = microseconds == 1_000_000 ? (Int64(whole) + 1, 0) : (Int64(whole), microseconds)
    }

    private init(seconds: Int64, microseconds: Int64) {
        self.seconds = seconds
        self.microseconds = microseconds
    }

    /// The nearest `Date`.
    package var date: Date { Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1e6) }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard let fields = CalendarFields(bytes) else { return nil }
        var index = 19
        var microseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = bytes[index...].prefix(while: isDigit)
            guard (1...9).contains(digits.count) else { return nil }
            for position in 0..<6 {
                microseconds =
                    microseconds * 10
                    + (position < digits.count ? Int64(digits[index + position] - UInt8(ascii: "0")) : 0)
            }
            index += digits.count
        }
        guard let offset = offsetSeconds(bytes[index...]) else { return nil }
        let utc = fields.secondsSince1970 - offset
        guard secondsSince1970.contains(utc) else { return nil }
        return Timestamp(seconds: Int64(utc), microseconds: microseconds)
    }

    /// `Z` (or `z`), or `±HH:MM` with an hour up to 23 and a minute up to 59,
    /// and nothing after: the offset from UTC in seconds.
    private static func offsetSeconds(_ zone: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        let zone = Array(zone)
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] { return 0 }
        guard zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
            zone[3] == UInt8(ascii: ":"), [1, 2, 4, 5].allSatisfy({ isDigit(zone[$0]) })
        else { return nil }
        let hours = Int(zone[1] - UInt8(ascii: "0")) * 10 + Int(zone[2] - UInt8(ascii: "0"))
        let minutes = Int(zone[4] - UInt8(ascii: "0")) * 10 + Int(zone[5] - UInt8(ascii: "0"))
        guard hours <= 23, minutes <= 59 else { return nil }
        return (zone[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// `yyyy-MM-ddTHH:mm:ss` at the start of a timestamp, each field within
    /// its range: a year from 1, a day that exists in its month.
    private struct CalendarFields {
        let year, month, day, hour, minute, second: Int

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 20 else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    guard Timestamp.isDigit(bytes[index]) else { return nil }
                    value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                }
                return value
            }
            guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"),
                bytes[16] == UInt8(ascii: ":"), let year = number(0..<4), let month = number(5..<7),
                let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
                let second = number(17..<19), year >= 1, (1...12).contains(month), day >= 1,
                day <= Self.days(inMonth: month, of: year), hour <= 23, minute <= 59, second <= 59
            else { return nil }
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
                year, month, day, hour, minute, second
            )
        }

        private static func days(inMonth month: Int, of year: Int) -> Int {
            switch month {
            case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        /// Howard Hinnant's days-from-civil, in the proleptic Gregorian calendar.
        var secondsSince1970: Int {
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = shiftedYear / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return days * 86_400 + hour * 3600 + minute * 60 + second
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `yyyy-MM-ddTHH:mm:ss.ffffffZ`, in UTC.
    package var text: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `2026-11-21 08:30:12 UTC`: the one way species shows a time to
    /// people.
    package var forPeople: String { text.prefix(19).replacingOccurrences(of: "T", with: " ") + " UTC" }

    /// Appends the UTF-8 of `text`, without making a String.
    func append(to bytes: inout [UInt8]) {
        let (days, secondOfDay) = Self.floorDivide(seconds, 86_400)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        Self.appendDigits(UInt64(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(UInt64(month), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(UInt64(day), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.appendDigits(UInt64(secondOfDay / 3600), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(UInt64(secondOfDay / 60 % 60), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(UInt64(secondOfDay % 60), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        Self.appendDigits(UInt64(microseconds), width: 6, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The decimal digits of `value`, padded with zeros to `width`.
    static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var length = 1
        var rest = value / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(length, width)))
        var position = bytes.count - 1
        rest = value
        repeat {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            position -= 1
        } while rest > 0
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// Howard Hinnant's civil-from-days (proleptic Gregorian calendar).
    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
