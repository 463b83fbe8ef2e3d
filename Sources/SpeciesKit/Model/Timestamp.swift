import Foundation

/// SWAPI's UTC timestamps: `2014-12-10T16:44:31.486000Z`, sometimes with three
/// fraction digits, or none. Parsing and formatting never read the machine's
/// time zone or locale, and a day that does not exist (February 30, year 0)
/// is no timestamp at all.
package enum Timestamp {
    /// The date of `text`; nil when it is not an ISO 8601 timestamp of a real
    /// moment. SWAPI's own form, `yyyy-MM-ddTHH:mm:ss[.f...]Z`, is read here
    /// directly (several times faster than a format style); one with an
    /// offset such as `+01:00` by `Date.ISO8601FormatStyle`, once its date
    /// and time fields are checked (the style would take February 30 for
    /// March 2).
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes in
            guard let fields = CalendarFields(bytes) else { return nil }
            guard bytes.last == UInt8(ascii: "Z") else {
                return parseWithFormatStyle(String(decoding: bytes, as: UTF8.self))
            }
            return utcFraction(bytes).map { Date(timeIntervalSince1970: Double(fields.secondsSince1970) + $0) }
        }
    }

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    private static func parseWithFormatStyle(_ text: String) -> Date? {
        (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }

    /// Between the 19 bytes of the fields and the final `Z`: nothing, or a
    /// fraction of 1 to 9 digits. The fraction's value; nil for anything else.
    private static func utcFraction(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count >= 20 else { return nil }
        let ending = bytes[19..<(bytes.count - 1)]
        guard let dot = ending.first else { return 0 }
        let digits = ending.dropFirst()
        guard dot == UInt8(ascii: "."), (1...9).contains(digits.count), digits.allSatisfy(isDigit) else { return nil }
        var value = 0
        for digit in digits { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        var scale = 1.0
        for _ in digits { scale *= 10 }
        return Double(value) / scale
    }

    /// `yyyy-MM-ddTHH:mm:ss` at the start of a timestamp, each field within
    /// its range: a year from 1, a day that exists in its month.
    private struct CalendarFields {
        let year, month, day, hour, minute, second: Int

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 19 else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    guard Timestamp.isDigit(bytes[index]) else { return nil }
                    value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                }
                return value
            }
            guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                year >= 1, (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year),
                hour <= 23, minute <= 59, second <= 59
            else { return nil }
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
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

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Formats as `yyyy-MM-ddTHH:mm:ss.ffffffZ` in UTC, rounded to the
    /// microsecond, which is the precision SWAPI writes.
    package static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 of `format(date)`, without making a String.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        // Parsed timestamps lie within years 1-9999; the clamp only keeps a
        // Date made some other way from trapping on the Int64 conversion.
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let total = microseconds.isNaN ? 0 : Int64(max(-3e17, min(3e17, microseconds)))
        let (seconds, fraction) = floorDivide(total, 1_000_000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(year.magnitude, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(month), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(day), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(UInt64(secondOfDay / 3600), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(UInt64(secondOfDay / 60 % 60), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(UInt64(secondOfDay % 60), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(UInt64(fraction), width: 6, to: &bytes)
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
