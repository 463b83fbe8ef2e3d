/// The numeric id of a SWAPI resource, read from its URL.
public enum ResourceID {
    /// The last path component that is a number: `.../species/3/` gives 3.
    /// The scheme, host and port, the query and the fragment are never read.
    public static func from(url: String) -> Int? {
        var url = url
        return url.withUTF8(id)
    }

    private static func id(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let slash = UInt8(ascii: "/")
        var start = 0
        // After "scheme://", the path starts at the next slash.
        for index in 0..<max(0, bytes.count - 2)
        where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == slash && bytes[index + 2] == slash {
            start = bytes[(index + 3)...].firstIndex(of: slash) ?? bytes.count
            break
        }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
        // Components from the last: each lies between two slashes.
        var componentEnd = end
        var index = end
        while index > start {
            index -= 1
            guard bytes[index] == slash else { continue }
            if let id = number(bytes[(index + 1)..<componentEnd]) { return id }
            componentEnd = index
        }
        return number(bytes[start..<componentEnd])
    }

    /// The value of ASCII digits that fit an Int; nil for anything else, or nothing.
    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        return value
    }
}
